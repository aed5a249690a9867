import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, download, get, patch, post } from '@/api/http';
import type { components } from '@/api/schema';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';

type S = components['schemas'];
export type StockRow = S['Stock'];
export type ProductTotal = S['ProductTotal'];
export type StockMove = S['StockMove'];
export type Warehouse = S['Warehouse'];
export type Location = S['LocationWithWarehouse'];
export type WarehouseCarton = S['WarehouseCarton'];
export type WarehouseCartonDetail = S['WarehouseCartonDetail'];
export type CartonEvent = S['CartonEvent'];
export type InboundShipment = S['InboundShipment'];
export type InboundShipmentDetail = S['InboundShipmentDetail'];
export type SearchHit = S['SearchHit'];
export type ScanResult = S['ScanResult'];
export type StockCount = S['Count'];
export type TransferInput = S['TransferRequest'];
export type CountInput = S['CountWriteRequest'];
export type ReorderPoint = S['ReorderPoint'];
export type ReorderPointInput = S['ReorderPointRequest'];
export type ReceiptRef = S['ReceiptRef'];

export const STOCK_URL = '/api/inventory/stock/';
export const STOCK_TOTALS_URL = '/api/inventory/stock/totals/';
export const MOVES_URL = '/api/inventory/moves/';
export const WAREHOUSES_URL = '/api/inventory/warehouses/';
export const LOCATIONS_URL = '/api/inventory/locations/';
export const CARTONS_URL = '/api/inventory/cartons/';
export const INBOUND_URL = '/api/inventory/inbound/';
export const TRANSFERS_URL = '/api/inventory/transfers/';
export const COUNTS_URL = '/api/inventory/counts/';
export const REORDER_POINTS_URL = '/api/inventory/reorder-points/';
export const SEARCH_URL = '/api/inventory/search/';
export const PRODUCT_GROUPS_URL = '/api/products/groups/';

export const cartonUrl = (code: string) => `${CARTONS_URL}${encodeURIComponent(code)}/`;
export const inboundUrl = (id: number) => `${INBOUND_URL}${id}/`;

/* ---------- fetchers ---------- */

export const fetchWarehouses = (signal?: AbortSignal) =>
  get<Paginated<Warehouse>>(WAREHOUSES_URL, { params: { page_size: 200, is_active: true }, signal });
export const fetchLocationByCode = (code: string) =>
  get<Paginated<Location>>(LOCATIONS_URL, { params: { code, is_active: true, page_size: 2 } });
export const fetchCarton = (code: string, signal?: AbortSignal) => get<WarehouseCartonDetail>(cartonUrl(code), { signal });
export const fetchInbound = (id: number, signal?: AbortSignal) => get<InboundShipmentDetail>(inboundUrl(id), { signal });
export const search = (q: string, signal?: AbortSignal) => get<SearchHit[]>(SEARCH_URL, { params: { q }, signal });
export const postTransfer = (input: TransferInput) => post<StockMove>(TRANSFERS_URL, input);
export const postCount = (input: CountInput) => post<StockCount>(COUNTS_URL, input);
export const postReceipts = (id: number) => post<ReceiptRef[]>(`${inboundUrl(id)}post-receipts/`);
/** Sets a product's reorder point (creates or changes the product's one point). */
export const postReorderPoint = (input: ReorderPointInput) => post<ReorderPoint>(REORDER_POINTS_URL, input);
export const fetchReorderPoint = (product: number) =>
  get<Paginated<ReorderPoint>>(REORDER_POINTS_URL, { params: { product, page_size: 1 } });
export const deleteReorderPoint = (id: number) => del<void>(`${REORDER_POINTS_URL}${String(id)}/`);

/** A scan as the queue sends it: the action's endpoint and its body (with the phone's scan id). */
export interface ScanRequest {
  url: string;
  body: Record<string, unknown> & { code: string; scan_id: string };
}
export const receiveScan = (body: ScanRequest['body'] & { shipment: number; location?: number | null }): ScanRequest => ({
  url: `${CARTONS_URL}receive/`,
  body,
});
export const moveScan = (body: ScanRequest['body'] & { location: number }): ScanRequest => ({
  url: `${CARTONS_URL}move/`,
  body,
});

/* ---------- hooks ---------- */

function useTenantId(): string | null {
  return useSession((s) => s.tenantId);
}

export function useWarehouses() {
  const tenant = useTenantId();
  return useQuery({ queryKey: [WAREHOUSES_URL, 'all', tenant], queryFn: ({ signal }) => fetchWarehouses(signal) });
}

export function useProductGroups() {
  const tenant = useTenantId();
  return useQuery({
    queryKey: [PRODUCT_GROUPS_URL, 'all', tenant],
    queryFn: ({ signal }) =>
      get<Paginated<{ id: number; name: string }>>(PRODUCT_GROUPS_URL, { params: { page_size: 200 }, signal }),
  });
}

export function useCarton(code: string | null) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: [CARTONS_URL, tenant, code ?? ''],
    queryFn: ({ signal }) => fetchCarton(code ?? '', signal),
    enabled: Boolean(code),
    retry: false,
  });
}

export function useInbound(id: number | null) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: [INBOUND_URL, tenant, id],
    queryFn: ({ signal }) => fetchInbound(id ?? 0, signal),
    enabled: id !== null,
  });
}

export function useInvalidateWarehouse() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [STOCK_URL, STOCK_TOTALS_URL, MOVES_URL, CARTONS_URL, INBOUND_URL, COUNTS_URL, REORDER_POINTS_URL].map((url) =>
        client.invalidateQueries({ queryKey: [url] }),
      ),
    );
}

export function useTransfer() {
  const invalidate = useInvalidateWarehouse();
  return useMutation({ mutationFn: postTransfer, onSuccess: () => invalidate() });
}

export function useCount() {
  const invalidate = useInvalidateWarehouse();
  return useMutation({ mutationFn: postCount, onSuccess: () => invalidate() });
}

export function usePostReceipts() {
  const invalidate = useInvalidateWarehouse();
  return useMutation({ mutationFn: postReceipts, onSuccess: () => invalidate() });
}

/* ---------- sales shipments to pick (the sales area's endpoints) ---------- */

export type SalesShipment = S['SalesShipment'];
export type SalesShipmentDetail = S['SalesShipmentDetail'];
export type PickLocation = S['PickLocation'];
export const SALES_SHIPMENTS_URL = '/api/salesorders/shipments/';
export const salesShipmentUrl = (id: number) => `${SALES_SHIPMENTS_URL}${id}/`;

export const pickScan = (shipment: number, code: string, scanId: string): ScanRequest => ({
  url: `${salesShipmentUrl(shipment)}cartons/`,
  body: { codes: [code], code, scan_id: scanId },
});

export function useSalesShipment(id: number | null) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: [SALES_SHIPMENTS_URL, tenant, id],
    queryFn: ({ signal }) => get<SalesShipmentDetail>(salesShipmentUrl(id ?? 0), { signal }),
    enabled: id !== null,
  });
}

/** Ships what was picked: lines with cartons ship their carton count (the rest stays open on the order,
 *  a backorder), then the shipment ships. */
export function useShipPicked() {
  const client = useQueryClient();
  const invalidate = useInvalidateWarehouse();
  return useMutation({
    mutationFn: async ({ shipment, shortPick }: { shipment: SalesShipmentDetail; shortPick: boolean }) => {
      if (shortPick) {
        const picked = new Map<number, number>();
        for (const carton of shipment.cartons) picked.set(carton.shipment_line, (picked.get(carton.shipment_line) ?? 0) + 1);
        // A labelled line ships its picked cartons (a line with none comes off the shipment); an unlabelled
        // line keeps its quantity.
        const lines = shipment.lines
          .map((line) => ({ order_line: line.order_line, quantity: line.labelled ? String(picked.get(line.id) ?? 0) : line.quantity }))
          .filter((line) => Number(line.quantity) > 0);
        await patchShipmentLines(shipment, lines);
      }
      return post<SalesShipmentDetail>(`${salesShipmentUrl(shipment.id)}ship/`);
    },
    onSuccess: () => Promise.all([invalidate(), client.invalidateQueries({ queryKey: [SALES_SHIPMENTS_URL] })]),
  });
}

function patchShipmentLines(shipment: SalesShipmentDetail, lines: { order_line: number; quantity: string }[]) {
  return patch<SalesShipmentDetail>(salesShipmentUrl(shipment.id), { sales_order: shipment.sales_order, lines });
}

// -- query options of the warehouse pages (docs/architecture.md "Web app": keys live here) -------------

export const PRODUCTS_URL = '/api/products/';
export interface ProductChoice {
  id: number;
  article_number: string;
  name: string;
}
/** Active products matching `term` (article number or name). */
export const productSearchQueryOptions = (tenant: string | null, term: string) =>
  queryOptions({
    queryKey: [PRODUCTS_URL, 'search', tenant, term],
    queryFn: ({ signal }) => get<Paginated<ProductChoice>>(PRODUCTS_URL, { params: { search: term, page_size: 20, is_active: true }, signal }),
  });

/** The warehouse search's hits for a text (cartons, products, locations, shipments). */
export const searchQueryOptions = (tenant: string | null, text: string) =>
  queryOptions({ queryKey: [SEARCH_URL, tenant, text], queryFn: ({ signal }) => search(text, signal), staleTime: 10_000 });

export const DISPATCHES_URL = '/api/logistics/dispatches/';
export const CARRIERS_URL = '/api/logistics/shipment-companies/';
export type Dispatch = components['schemas']['Dispatch'];
export type DispatchInput = components['schemas']['DispatchRequest'];
/** Keys to invalidate: every dispatch query starts with the endpoint. */
export const dispatchKeys = { all: [DISPATCHES_URL] as const };
export const carriersQueryOptions = (tenant: string | null) =>
  queryOptions({
    queryKey: [CARRIERS_URL, 'all', tenant],
    queryFn: ({ signal }) => get<Paginated<{ id: number; name: string }>>(CARRIERS_URL, { params: { page_size: 200 }, signal }),
  });
export const saveDispatch = (id: number | undefined, body: DispatchInput) =>
  id === undefined ? post<Dispatch>(DISPATCHES_URL, body) : patch<Dispatch>(`${DISPATCHES_URL}${id}/`, body);
export const deleteDispatch = (id: number) => del(`${DISPATCHES_URL}${id}/`);
export const downloadLoadingList = (day: string) => download(`${DISPATCHES_URL}loading-list/`, { params: { date: day } });

/** Sales shipments a pickup can be for (not yet delivered), matching `term`. */
export const dispatchableShipmentsQueryOptions = (tenant: string | null, term: string) =>
  queryOptions({
    queryKey: [SALES_SHIPMENTS_URL, 'search', tenant, term],
    queryFn: ({ signal }) =>
      get<Paginated<SalesShipment>>(SALES_SHIPMENTS_URL, { params: { search: term, page_size: 20, status: 'draft,picked,shipped' }, signal }),
  });
