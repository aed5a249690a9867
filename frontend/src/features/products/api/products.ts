import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post } from '@/api/http';
import { useSession } from '@/shared/session/useSession';
import { PRODUCT_GROUPS_URL, PRODUCT_GROUP_TREE_URL, PRODUCTS_URL, productGroupUrl, productUrl } from './endpoints';
import type { Product, ProductGroup, ProductGroupInput, ProductGroupNode, ProductInput } from './types';

/* ---------- fetchers ---------- */

export const fetchProduct = (id: number | string, signal?: AbortSignal) => get<Product>(productUrl(id), { signal });
export const createProduct = (input: ProductInput) => post<Product>(PRODUCTS_URL, input);
export const updateProduct = (id: number, input: Partial<ProductInput>) => patch<Product>(productUrl(id), input);
export const deleteProduct = (id: number) => del(productUrl(id));

export const fetchGroupTree = (signal?: AbortSignal) => get<ProductGroupNode[]>(PRODUCT_GROUP_TREE_URL, { signal });
export const createGroup = (input: ProductGroupInput) => post<ProductGroup>(PRODUCT_GROUPS_URL, input);
export const updateGroup = (id: number, input: ProductGroupInput) => patch<ProductGroup>(productGroupUrl(id), input);
export const deleteGroup = (id: number) => del(productGroupUrl(id));

/* ---------- query keys: the list endpoints are the ServerTable's keys ---------- */

export const productKeys = {
  detail: (tenant: string | null, id: number | string) => [PRODUCTS_URL, 'detail', tenant, String(id)] as const,
  groupTree: (tenant: string | null) => [PRODUCT_GROUP_TREE_URL, tenant] as const,
};

function useTenantId(): string | null {
  return useSession((s) => s.tenantId);
}

/* ---------- hooks ---------- */

export function useProduct(id: number | string | undefined) {
  const tenant = useTenantId();
  return useQuery({
    queryKey: productKeys.detail(tenant, id ?? ''),
    queryFn: ({ signal }) => fetchProduct(id ?? '', signal),
    enabled: id !== undefined && /^\d+$/.test(String(id)),
  });
}

export function useGroupTree() {
  const tenant = useTenantId();
  return useQuery({ queryKey: productKeys.groupTree(tenant), queryFn: ({ signal }) => fetchGroupTree(signal) });
}

/** Refreshes every product list, detail and the group tree (counts change with products). */
export function useInvalidateProducts() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [PRODUCTS_URL] }),
      client.invalidateQueries({ queryKey: [PRODUCT_GROUPS_URL] }),
      client.invalidateQueries({ queryKey: [PRODUCT_GROUP_TREE_URL] }),
    ]);
}

export function useSaveProduct(id: number | undefined) {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (input: ProductInput) => (id === undefined ? createProduct(input) : updateProduct(id, input)),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({ mutationFn: deleteProduct, onSuccess: () => invalidate() });
}

export function useSaveGroup(id: number | undefined) {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (input: ProductGroupInput) => (id === undefined ? createGroup(input) : updateGroup(id, input)),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteGroup() {
  const invalidate = useInvalidateProducts();
  return useMutation({ mutationFn: deleteGroup, onSuccess: () => invalidate() });
}
