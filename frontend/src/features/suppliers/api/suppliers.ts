import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post } from '@/api/http';
import type { Paginated } from '@/api/types';
import type { ParentVendor, ParentVendorInput, Supplier, SupplierInput } from './types';

export const SUPPLIERS_URL = '/api/suppliers/';
export const PARENT_VENDORS_URL = '/api/suppliers/parent-vendors/';

export const supplierQuery = (id: string | number) =>
  queryOptions({ queryKey: [SUPPLIERS_URL, 'detail', String(id)], queryFn: () => get<Supplier>(`${SUPPLIERS_URL}${id}/`) });

export function useSupplier(id: string | number) {
  return useQuery(supplierQuery(id));
}

export const createSupplier = (input: Partial<SupplierInput>) => post<Supplier>(SUPPLIERS_URL, input);
export const updateSupplier = (id: number, input: Partial<SupplierInput>) => patch<Supplier>(`${SUPPLIERS_URL}${id}/`, input);
export const deleteSupplier = (id: number) => del(`${SUPPLIERS_URL}${id}/`);

/** Invalidates the supplier lists (every filter) and details after a write. */
export function useInvalidateSuppliers() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [SUPPLIERS_URL] }),
      client.invalidateQueries({ queryKey: [PARENT_VENDORS_URL] }),
    ]);
}

export function useDeleteSupplier() {
  const invalidate = useInvalidateSuppliers();
  return useMutation({ mutationFn: deleteSupplier, onSuccess: invalidate });
}

/** Active parent vendors for selects (at most 200: a company has a handful). */
export function useParentVendorOptions() {
  return useQuery({
    queryKey: [PARENT_VENDORS_URL, 'options'],
    queryFn: () => get<Paginated<ParentVendor>>(PARENT_VENDORS_URL, { params: { page_size: 200, ordering: 'name' } }),
    staleTime: 60_000,
    select: (data) => data.results,
  });
}

export const createParentVendor = (input: Partial<ParentVendorInput>) => post<ParentVendor>(PARENT_VENDORS_URL, input);
export const updateParentVendor = (id: number, input: Partial<ParentVendorInput>) =>
  patch<ParentVendor>(`${PARENT_VENDORS_URL}${id}/`, input);
export const deleteParentVendor = (id: number) => del(`${PARENT_VENDORS_URL}${id}/`);
