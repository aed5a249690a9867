import { useQuery } from '@tanstack/react-query';
import { useSession } from '@/shared/session/useSession';
import { TENANTS_QUERY_KEY, fetchTenants } from './tenants';

export function useTenants() {
  const signedIn = useSession((s) => Boolean(s.accessToken));
  return useQuery({ queryKey: TENANTS_QUERY_KEY, queryFn: fetchTenants, enabled: signedIn, staleTime: 5 * 60_000 });
}
