/** Master data the EUDR screens pick from: parent vendors, products, purchase order lines. */
import { useQuery } from '@tanstack/react-query';
import { get } from '@/api/http';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';
import { canSearchProducts } from '../lib/validation';
import { PARENT_VENDORS_URL, PRODUCTS_URL, PURCHASE_ORDERS_URL } from './endpoints';
import type { ParentVendorSummary } from './types';

export interface ProductOption {
  id: number;
  article_number: string;
  name: string;
  name_zh?: string;
  weight_per_carton_kg: string | null;
}

export interface PurchaseOrderLineOption {
  id: number;
  line_number: number;
  product: number;
  product_number: string;
  product_name: string;
  product_name_zh?: string;
  line_description: string;
  order_qty: string;
  weight_per_carton: string | null;
  open_qty: string;
  cartons_issued: number;
}

export interface PurchaseOrderOption {
  id: number;
  order_number: string;
  order_date: string;
  status: string;
  supplier_detail?: { id: number; number: string; name: string };
  lines?: PurchaseOrderLineOption[];
}

export function useParentVendors(enabled = true) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: ['eudr', 'lookup', 'parent-vendors', tenant],
    queryFn: ({ signal }) => get<Paginated<ParentVendorSummary>>(PARENT_VENDORS_URL, { signal, params: { page_size: 200 } }),
    select: (data) => data.results,
    enabled,
    staleTime: 5 * 60 * 1000,
  });
}

/** Products by article number or name; nothing is asked before 2 characters (docs/specification.md section 9). */
export function useProductSearch(term: string) {
  const tenant = useSession((s) => s.tenantId);
  const search = term.trim();
  return useQuery({
    queryKey: ['eudr', 'lookup', 'products', tenant, search],
    queryFn: ({ signal }) => get<Paginated<ProductOption>>(PRODUCTS_URL, { signal, params: { search, page_size: 20 } }),
    select: (data) => data.results,
    enabled: canSearchProducts(search),
    staleTime: 60 * 1000,
  });
}

/** Open purchase orders of the delivery's parent vendor that order this product. */
export function useOpenOrdersForProduct(parentVendor: number | null | undefined, product: number | undefined) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: ['eudr', 'lookup', 'open-orders', tenant, parentVendor, product],
    queryFn: ({ signal }) =>
      get<Paginated<PurchaseOrderOption>>(PURCHASE_ORDERS_URL, {
        signal,
        params: { status: 'confirmed,sent,partly_received', product, page_size: 100, ordering: '-order_date', ...(parentVendor ? { parent_vendor: parentVendor } : {}) },
      }),
    select: (data) => data.results,
    enabled: product !== undefined,
    staleTime: 30 * 1000,
  });
}

/** One order with its lines (for the line of the chosen product). */
export function usePurchaseOrder(id: number | undefined) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: ['eudr', 'lookup', 'order', tenant, id],
    queryFn: ({ signal }) => get<PurchaseOrderOption>(`${PURCHASE_ORDERS_URL}${id}/`, { signal }),
    enabled: id !== undefined,
    staleTime: 30 * 1000,
  });
}
