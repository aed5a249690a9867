import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post } from '@/api/http';
import { searchOptionsQueryOptions } from '@/api/queries';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';
import type { OrderOption, Shipment, ShipmentCompany, ShipmentCompanyInput, ShipmentInput, ShipmentStatus } from './types';

export const SHIPMENTS_URL = '/api/logistics/shipments/';
export const COMPANIES_URL = '/api/logistics/shipment-companies/';
export const ORDERS_URL = '/api/purchaseorders/orders/';

export const shipmentUrl = (id: number) => `${SHIPMENTS_URL}${id}/`;
export const companyUrl = (id: number) => `${COMPANIES_URL}${id}/`;
export const companyByNameUrl = (name: string) => `${COMPANIES_URL}by-name/${encodeURIComponent(name)}/`;

/* ---------- fetchers ---------- */

export const createShipment = (input: ShipmentInput) => post<Shipment>(SHIPMENTS_URL, input);
export const updateShipment = (id: number, input: Partial<ShipmentInput>) => patch<Shipment>(shipmentUrl(id), input);
export const deleteShipment = (id: number) => del(shipmentUrl(id));
export const transitionShipment = (id: number, status: ShipmentStatus) =>
  post<Shipment>(`${shipmentUrl(id)}transition/`, { status });

export const fetchCompanyByName = (name: string, signal?: AbortSignal) => get<ShipmentCompany>(companyByNameUrl(name), { signal });
export const createCompany = (input: ShipmentCompanyInput) => post<ShipmentCompany>(COMPANIES_URL, input);
export const updateCompany = (id: number, input: Partial<ShipmentCompanyInput>) => patch<ShipmentCompany>(companyUrl(id), input);
export const deleteCompany = (id: number) => del(companyUrl(id));

export const fetchCompanies = (signal?: AbortSignal) =>
  get<Paginated<ShipmentCompany>>(COMPANIES_URL, { params: { page_size: 200, ordering: 'name' }, signal });
export const searchOrders = (search: string, signal?: AbortSignal) =>
  get<Paginated<OrderOption>>(ORDERS_URL, { params: { search, page_size: 20, status: 'confirmed,sent,partly_received,received,closed' }, signal });
/** The purchase orders a shipment can carry, matching `text` (the same cache entries as a RemoteSelect of orders). */
export const orderOptionsQueryOptions = (tenant: string | null, text: string) => searchOptionsQueryOptions(ORDERS_URL, tenant, text, searchOrders);

/* ---------- hooks ---------- */

function useTenantId(): string | null {
  return useSession((s) => s.tenantId);
}

export function useCompanies(enabled = true) {
  const tenant = useTenantId();
  return useQuery({ queryKey: [COMPANIES_URL, 'all', tenant], queryFn: ({ signal }) => fetchCompanies(signal), enabled });
}

export function useCompanyByName(name: string | undefined) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: [COMPANIES_URL, 'by-name', tenant, name ?? ''],
    queryFn: ({ signal }) => fetchCompanyByName(name ?? '', signal),
    enabled: Boolean(name),
  });
}

export function useInvalidateLogistics() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [SHIPMENTS_URL] }),
      client.invalidateQueries({ queryKey: [COMPANIES_URL] }),
    ]);
}

export function useSaveShipment(id: number | undefined) {
  const invalidate = useInvalidateLogistics();
  return useMutation({
    mutationFn: (input: ShipmentInput) => (id === undefined ? createShipment(input) : updateShipment(id, input)),
    onSuccess: () => invalidate(),
  });
}

export function useTransitionShipment(id: number) {
  const invalidate = useInvalidateLogistics();
  return useMutation({ mutationFn: (status: ShipmentStatus) => transitionShipment(id, status), onSuccess: () => invalidate() });
}

export function useDeleteShipment() {
  const invalidate = useInvalidateLogistics();
  return useMutation({ mutationFn: deleteShipment, onSuccess: () => invalidate() });
}

export function useSaveCompany(id: number | undefined) {
  const invalidate = useInvalidateLogistics();
  return useMutation({
    mutationFn: (input: ShipmentCompanyInput) => (id === undefined ? createCompany(input) : updateCompany(id, input)),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteCompany() {
  const invalidate = useInvalidateLogistics();
  return useMutation({ mutationFn: deleteCompany, onSuccess: () => invalidate() });
}

export const fetchShipment = (id: number, signal?: AbortSignal) => get<Shipment>(shipmentUrl(id), { signal });

export function useShipment(id: number | null) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: [SHIPMENTS_URL, 'detail', tenant, id],
    queryFn: ({ signal }) => fetchShipment(id ?? 0, signal),
    enabled: id !== null,
  });
}
