import { useQuery } from '@tanstack/react-query';
import { printerChoicesQueryOptions } from '@/shared/printing/printApi';
import { useSession } from '@/shared/session/useSession';

/** The active printers of the tenant (for pickers), refreshed every 10 s for their status. */
export function usePrinters() {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    ...printerChoicesQueryOptions(tenant),
    refetchInterval: 10000,
  });
}
