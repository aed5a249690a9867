import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, download, get, patch, post } from '@/api/http';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';
import {
  ORDER_OWNERS_URL,
  ORDER_SUMMARY_URL,
  ORDERS_URL,
  PRODUCTS_URL,
  RECEIPTS_URL,
  SHIPMENTS_URL,
  SUPPLIERS_URL,
  orderActionUrl,
  orderByNumberUrl,
  orderPdfUrl,
  orderUrl,
  type OrderAction,
} from './endpoints';
import type {
  OrderInput,
  OrderOption,
  OrderShipment,
  OrderSummary,
  OwnerOption,
  ProductOption,
  PurchaseOrderDetail,
  Receipt,
  SupplierOption,
} from './types';

/* ---------- fetchers ---------- */

export const fetchOrderByNumber = (orderNumber: string, signal?: AbortSignal) =>
  get<PurchaseOrderDetail>(orderByNumberUrl(orderNumber), { signal });
export const createOrder = (input: OrderInput) => post<PurchaseOrderDetail>(ORDERS_URL, input);
export const updateOrder = (id: number, input: Partial<OrderInput>) => patch<PurchaseOrderDetail>(orderUrl(id), input);
export const deleteOrder = (id: number) => del(orderUrl(id));
export const actOnOrder = (id: number, act: OrderAction) => post<PurchaseOrderDetail>(orderActionUrl(id, act), {});

/** Opens the order's PDF (in the supplier's language) in a new tab, fetched with the session's credentials. */
export async function openOrderPdf(id: number): Promise<void> {
  const file = await download(orderPdfUrl(id));
  const blobUrl = URL.createObjectURL(new Blob([file.blob], { type: 'application/pdf' }));
  window.open(blobUrl, '_blank', 'noopener');
  window.setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
}
export const fetchOrderSummary = (params: Record<string, unknown>, signal?: AbortSignal) =>
  get<OrderSummary>(ORDER_SUMMARY_URL, { params, signal });

export const searchSuppliers = (search: string, signal?: AbortSignal) =>
  get<Paginated<SupplierOption>>(SUPPLIERS_URL, { params: { search, page_size: 20, is_active: true }, signal });
export const fetchSupplier = (id: number, signal?: AbortSignal) => get<SupplierOption>(`${SUPPLIERS_URL}${id}/`, { signal });
export const searchProducts = (search: string, signal?: AbortSignal) =>
  get<Paginated<ProductOption>>(PRODUCTS_URL, { params: { search, page_size: 20, is_active: true }, signal });

export const searchOwners = (search: string, signal?: AbortSignal) =>
  get<Paginated<OwnerOption>>(ORDER_OWNERS_URL, { params: { search, page_size: 20 }, signal });
export const fetchOwner = (id: number, signal?: AbortSignal) =>
  get<Paginated<OwnerOption>>(ORDER_OWNERS_URL, { params: { id }, signal });
/** Orders by number or supplier; `status` narrows them (e.g. the receivable ones for the receive picker). */
export const searchOrders = (search: string, status?: string, signal?: AbortSignal) =>
  get<Paginated<OrderOption>>(ORDERS_URL, {
    params: { search, page_size: 20, ordering: '-order_date', ...(status ? { status } : {}) },
    signal,
  });
export const fetchOrder = (id: number, signal?: AbortSignal) => get<OrderOption>(`${ORDERS_URL}${id}/`, { signal });

/* ---------- keys: list endpoints first, so one invalidation refreshes lists and details ---------- */

export const orderKeys = {
  byNumber: (tenant: string | null, orderNumber: string) => [ORDERS_URL, 'by-number', tenant, orderNumber] as const,
  summary: (tenant: string | null, params: Record<string, unknown>) => [ORDER_SUMMARY_URL, tenant, params] as const,
  receipts: (tenant: string | null, orderId: number) => [RECEIPTS_URL, 'of-order', tenant, orderId] as const,
  shipments: (tenant: string | null, orderId: number) => [SHIPMENTS_URL, 'of-order', tenant, orderId] as const,
};

function useTenantId(): string | null {
  return useSession((s) => s.tenantId);
}

/* ---------- hooks ---------- */

export function useOrderByNumber(orderNumber: string | undefined) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: orderKeys.byNumber(tenant, orderNumber ?? ''),
    queryFn: ({ signal }) => fetchOrderByNumber(orderNumber ?? '', signal),
    enabled: Boolean(orderNumber),
  });
}

export function useOrderSummary(params: Record<string, unknown>, enabled = true) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: orderKeys.summary(tenant, params),
    queryFn: ({ signal }) => fetchOrderSummary(params, signal),
    enabled,
  });
}

export function useOrderReceipts(orderId: number | undefined, enabled = true) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: orderKeys.receipts(tenant, orderId ?? 0),
    queryFn: ({ signal }) =>
      get<Paginated<Receipt>>(RECEIPTS_URL, {
        params: { purchase_order: orderId, page_size: 200, ordering: '-receipt_date' },
        signal,
      }),
    enabled: enabled && orderId !== undefined,
  });
}

export function useOrderShipments(orderId: number | undefined, enabled = true) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: orderKeys.shipments(tenant, orderId ?? 0),
    queryFn: ({ signal }) =>
      get<Paginated<OrderShipment>>(SHIPMENTS_URL, { params: { purchase_order: orderId, page_size: 200 }, signal }),
    enabled: enabled && orderId !== undefined,
  });
}

/** Refreshes every order list, summary, detail, and receipt list. */
export function useInvalidateOrders() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [ORDERS_URL] }),
      client.invalidateQueries({ queryKey: [ORDER_SUMMARY_URL] }),
      client.invalidateQueries({ queryKey: [RECEIPTS_URL] }),
    ]);
}

export function useSaveOrder(id: number | undefined) {
  const invalidate = useInvalidateOrders();
  return useMutation({
    mutationFn: (input: OrderInput) => (id === undefined ? createOrder(input) : updateOrder(id, input)),
    onSuccess: () => invalidate(),
  });
}

export function useOrderAction(id: number) {
  const invalidate = useInvalidateOrders();
  return useMutation({ mutationFn: (act: OrderAction) => actOnOrder(id, act), onSuccess: () => invalidate() });
}

export function useDeleteOrder() {
  const invalidate = useInvalidateOrders();
  return useMutation({ mutationFn: deleteOrder, onSuccess: () => invalidate() });
}
