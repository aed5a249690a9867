import { useSession } from '@/shared/session/useSession';
import { useTenants } from './useTenants';

/** The current tenant's row from the server's list (undefined while loading or unknown). */
export function useCurrentTenant() {
  const tenantId = useSession((s) => s.tenantId);
  const { data } = useTenants();
  return data?.find((tenant) => String(tenant.id) === tenantId);
}
