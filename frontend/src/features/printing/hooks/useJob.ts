import { useQuery } from '@tanstack/react-query';
import { isSettled, jobQueryOptions } from '@/shared/printing/printApi';
import { useSession } from '@/shared/session/useSession';

/** One job, polled every 1.5 s until the agent has reported it (or it expired). */
export function useJob(id: number | undefined) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    ...jobQueryOptions(tenant, id),
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data && isSettled(query.state.data.status) ? false : 1500),
  });
}
