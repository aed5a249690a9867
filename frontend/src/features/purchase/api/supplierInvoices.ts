import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { del, download, get, post } from '@/api/http';
import { saveBlob } from '@/shared/utils/saveFile';
import {
  SUPPLIER_INVOICES_URL,
  supplierInvoiceActionUrl,
  supplierInvoiceOriginalUrl,
  supplierInvoiceUrl,
  type SupplierInvoiceAction,
} from './endpoints';
import type { SupplierInvoiceDetail } from './types';

/* ---------- fetchers ---------- */

export const fetchSupplierInvoice = (id: number | string, signal?: AbortSignal) =>
  get<SupplierInvoiceDetail>(supplierInvoiceUrl(id), { signal });

/** Uploads an e-invoice (UBL or CII XML, or a Factur-X PDF); answers the draft read from it. */
export function uploadSupplierInvoice(file: File) {
  const body = new FormData();
  body.append('file', file);
  return post<SupplierInvoiceDetail>(SUPPLIER_INVOICES_URL, body);
}

export const decideSupplierInvoice = (id: number, act: SupplierInvoiceAction, reason = '') =>
  post<SupplierInvoiceDetail>(supplierInvoiceActionUrl(id, act), { reason });
export const deleteSupplierInvoice = (id: number) => del(supplierInvoiceUrl(id));

/** Saves the uploaded file as it came. */
export async function downloadSupplierInvoiceOriginal(invoice: { id: number; original_filename: string; invoice_number: string }) {
  const file = await download(supplierInvoiceOriginalUrl(invoice.id));
  saveBlob(file.blob, file.fileName ?? (invoice.original_filename || `${invoice.invoice_number}.xml`));
}

/* ---------- keys and query options ---------- */

export const supplierInvoiceKeys = {
  all: [SUPPLIER_INVOICES_URL] as const,
  detail: (tenant: string | null, id: string) => [SUPPLIER_INVOICES_URL, 'detail', tenant, id] as const,
};

export const supplierInvoiceQueryOptions = (tenant: string | null, id: string) =>
  queryOptions({
    queryKey: supplierInvoiceKeys.detail(tenant, id),
    queryFn: ({ signal }) => fetchSupplierInvoice(id, signal),
  });

/* ---------- mutations ---------- */

function useInvalidateSupplierInvoices() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: supplierInvoiceKeys.all });
}

export function useUploadSupplierInvoice() {
  const invalidate = useInvalidateSupplierInvoices();
  return useMutation({ mutationFn: uploadSupplierInvoice, onSuccess: () => invalidate() });
}

export function useDecideSupplierInvoice(id: number) {
  const invalidate = useInvalidateSupplierInvoices();
  return useMutation({
    mutationFn: ({ act, reason }: { act: SupplierInvoiceAction; reason?: string }) => decideSupplierInvoice(id, act, reason),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteSupplierInvoice(id: number) {
  const invalidate = useInvalidateSupplierInvoices();
  return useMutation({ mutationFn: () => deleteSupplierInvoice(id), onSuccess: () => invalidate() });
}
