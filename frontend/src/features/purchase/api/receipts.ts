import { useMutation, useQuery } from '@tanstack/react-query';
import { get, post } from '@/api/http';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';
import { RECEIPTS_URL, WAREHOUSES_URL, receiptUrl } from './endpoints';
import { useInvalidateOrders } from './orders';
import type { ReceiptDetail, ReceiptInput, Warehouse } from './types';

export const fetchReceipt = (id: number | string, signal?: AbortSignal) => get<ReceiptDetail>(receiptUrl(id), { signal });
export const createReceipt = (input: ReceiptInput) => post<ReceiptDetail>(RECEIPTS_URL, input);
/** Active warehouses (where goods may be received), or all of them (`all`: the receipts filter). */
export const fetchWarehouses = (signal?: AbortSignal, all = false) =>
  get<Paginated<Warehouse>>(WAREHOUSES_URL, { params: { ...(all ? {} : { is_active: true }), page_size: 200 }, signal });

export function useReceipt(id: string | undefined) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [RECEIPTS_URL, 'detail', tenant, id ?? ''],
    queryFn: ({ signal }) => fetchReceipt(id ?? '', signal),
    enabled: id !== undefined && /^\d+$/.test(id),
  });
}

export function useWarehouses(enabled = true, all = false) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [WAREHOUSES_URL, tenant, all ? 'all' : 'active'],
    queryFn: ({ signal }) => fetchWarehouses(signal, all),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useCreateReceipt() {
  const invalidate = useInvalidateOrders();
  return useMutation({ mutationFn: createReceipt, onSuccess: () => invalidate() });
}
