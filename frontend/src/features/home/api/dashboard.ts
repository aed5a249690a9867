import { useQuery } from '@tanstack/react-query';
import { get } from '@/api/http';
import { useSession } from '@/shared/session/useSession';

export const DASHBOARD_URL = '/api/common/dashboard/';

/** docs/api-contract.md: counts per area the user may view. */
export interface Dashboard {
  counts: Record<string, number>;
}

export function fetchDashboard(): Promise<Dashboard> {
  return get<Dashboard>(DASHBOARD_URL);
}

export function useDashboard() {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({ queryKey: ['common', 'dashboard', tenantId], queryFn: fetchDashboard });
}
