import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, download, get, patch, post } from '@/api/http';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';
import { saveBlob } from '@/shared/utils/saveFile';
import {
  CARTONS_URL,
  DELIVERY_FILE_TEMPLATE_URL,
  PARSE_DELIVERY_FILE_URL,
  RAW_MATERIALS_URL,
  rawMaterialUrl,
} from './endpoints';
import type {
  BulkDeleteResult,
  CartonLabel,
  FileKind,
  GenerateCartonsInput,
  GenerateCartonsResult,
  GenerationLimit,
  CapApproval,
  ParsedDeliveryFile,
  ProductionBatch,
  RawMaterial,
  RawMaterialInput,
} from './types';

export const eudrKeys = {
  all: ['eudr'] as const,
  rawMaterial: (tenant: string | null, id: number | string) => ['eudr', 'raw-material', tenant, String(id)] as const,
  batches: (tenant: string | null, id: number | string) => ['eudr', 'batches', tenant, String(id)] as const,
  generationLimit: (tenant: string | null, id: number | string, product: number | null, line: number | null) =>
    ['eudr', 'generation-limit', tenant, String(id), product, line] as const,
};

/* ---------- fetchers ---------- */

export const fetchRawMaterial = (id: number | string, signal?: AbortSignal) => get<RawMaterial>(rawMaterialUrl(id), { signal });

export const createRawMaterial = (input: RawMaterialInput) => post<RawMaterial>(RAW_MATERIALS_URL, input);

/**
 * A draft is a delivery in status `draft`: created with `is_draft: true` (no required fields), updated in
 * place, and submitted (validated as a create, policy copied, active).
 */
export function saveDraft(id: number | null, input: RawMaterialInput) {
  const body = { ...input, is_draft: true };
  return id === null ? post<RawMaterial>(RAW_MATERIALS_URL, body) : patch<RawMaterial>(rawMaterialUrl(id), body);
}

/** Saves changes to a submitted delivery: fully validated again, its policy snapshot kept; renewed
 * certificates bring an expired delivery back to active. */
export const updateRawMaterial = (id: number, input: RawMaterialInput) => patch<RawMaterial>(rawMaterialUrl(id), input);

export const deleteRawMaterial = (id: number) => del(rawMaterialUrl(id));
export const submitDraft = (id: number) => post<RawMaterial>(`${rawMaterialUrl(id)}submit/`);

/** Uploads one file of a kind to a delivery or a draft. */
export function uploadFile(owner: { rawMaterialId: number }, kind: FileKind, file: File) {
  const body = new FormData();
  body.append('file', file);
  const base = rawMaterialUrl(owner.rawMaterialId);
  return post<RawMaterial>(`${base}files/${kind}/`, body);
}

/** Removes one stored document of a delivery or a draft. */
export function removeFile(owner: { rawMaterialId: number }, kind: FileKind) {
  return del<RawMaterial>(`${rawMaterialUrl(owner.rawMaterialId)}files/${kind}/`);
}

export async function downloadFile(owner: { rawMaterialId: number }, kind: FileKind, fallbackName: string) {
  const base = rawMaterialUrl(owner.rawMaterialId);
  const file = await download(`${base}files/${kind}/`);
  saveBlob(file.blob, file.fileName ?? fallbackName);
}

export function parseDeliveryFile(file: File) {
  const body = new FormData();
  body.append('file', file);
  return post<ParsedDeliveryFile>(PARSE_DELIVERY_FILE_URL, body);
}

/** Parses the delivery file already stored on a delivery or draft: fetched from the server, then read. */
export async function parseStoredDeliveryFile(rawMaterialId: number, name: string) {
  const stored = await download(`${rawMaterialUrl(rawMaterialId)}files/delivery_file/`);
  return parseDeliveryFile(new File([stored.blob], stored.fileName ?? name, { type: stored.blob.type }));
}

export async function downloadDeliveryFileTemplate(format: 'xlsx' | 'csv' = 'xlsx') {
  const file = await download(DELIVERY_FILE_TEMPLATE_URL, { params: { format } });
  saveBlob(file.blob, file.fileName ?? `delivery-file-template.${format}`);
}

export const fetchBatches = (id: number | string, signal?: AbortSignal) =>
  get<Paginated<ProductionBatch>>(`${rawMaterialUrl(id)}batches/`, { signal, params: { page_size: 200 } });


export const generateCartons = (id: number, input: GenerateCartonsInput) =>
  post<GenerateCartonsResult>(`${rawMaterialUrl(id)}generate-cartons/`, input);

export const approveOverCap = (id: number, input: { extra_cartons: number; reason: string }) =>
  post<CapApproval>(`${rawMaterialUrl(id)}approve-over-cap/`, input);

export const bulkDeleteCartons = (ids: readonly number[], reason: string) =>
  post<BulkDeleteResult>(`${CARTONS_URL}bulk-delete/`, { ids, reason });

export type LabelExportFormat = 'pdf' | 'csv';
export type LabelTemplate = 'compact' | 'default';

export async function exportLabels(params: Record<string, string | number | string[]>, format: LabelExportFormat, template: LabelTemplate) {
  const file = await download(`${CARTONS_URL}export/`, { params: { ...params, format, template } });
  saveBlob(file.blob, file.fileName ?? `carton-labels.${format}`);
}

export const setRawMaterialStatus = (id: number, status: 'active' | 'inactive') =>
  post<RawMaterial>(`${rawMaterialUrl(id)}set-status/`, { status });

/** Lists answer either a page or a bare array; both become an array. */
export function rowsOf<T>(data: Paginated<T> | T[] | undefined): T[] {
  if (!data) return [];
  return Array.isArray(data) ? data : data.results;
}

/* ---------- hooks ---------- */

export function useRawMaterial(id: number | string | undefined) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: eudrKeys.rawMaterial(tenant, id ?? ''),
    queryFn: ({ signal }) => fetchRawMaterial(id ?? '', signal),
    enabled: id !== undefined && id !== '',
  });
}

export function useBatches(id: number | string) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: eudrKeys.batches(tenant, id),
    queryFn: ({ signal }) => fetchBatches(id, signal),
    select: rowsOf,
    placeholderData: keepPreviousData,
  });
}

/** After anything that moves weight: the delivery, its batches, its labels and the lists refresh. */
export function useInvalidateRawMaterial() {
  const client = useQueryClient();
  return (id: number | string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['eudr'] }),
      client.invalidateQueries({ queryKey: [CARTONS_URL] }),
      client.invalidateQueries({ queryKey: [RAW_MATERIALS_URL] }),
    ]).then(() => id);
}

/** Today's first free batch code and, for a product and order line, the one limit of a generation and the rule that binds. */
export const fetchGenerationLimit = (id: number | string, product: number | null, line: number | null, signal?: AbortSignal) =>
  get<GenerationLimit>(`${rawMaterialUrl(id)}generation-limit/`, {
    signal,
    params: { product: product ?? undefined, purchase_order_line: line ?? undefined },
  });

export function useGenerationLimit(id: number, product: number | null, line: number | null, enabled: boolean) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: eudrKeys.generationLimit(tenant, id, product, line),
    queryFn: ({ signal }) => fetchGenerationLimit(id, product, line, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useGenerateCartons(id: number) {
  const invalidate = useInvalidateRawMaterial();
  return useMutation({
    mutationFn: (input: GenerateCartonsInput) => generateCartons(id, input),
    onSuccess: () => invalidate(id),
  });
}

export function useBulkDeleteCartons(id: number) {
  const invalidate = useInvalidateRawMaterial();
  return useMutation({
    mutationFn: ({ ids, reason }: { ids: readonly number[]; reason: string }) => bulkDeleteCartons(ids, reason),
    onSuccess: () => invalidate(id),
  });
}

export function useApproveOverCap(id: number) {
  const invalidate = useInvalidateRawMaterial();
  return useMutation({
    mutationFn: (input: { extra_cartons: number; reason: string }) => approveOverCap(id, input),
    onSuccess: () => invalidate(id),
  });
}

export type { CartonLabel };

/** A page of a raw material's carton labels with the labels table's filters. */
export const cartonLabelsQueryOptions = (tenant: string | null, filters: Record<string, string | number>, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [CARTONS_URL, tenant, filters, page, pageSize],
    queryFn: ({ signal }) => get<Paginated<CartonLabel>>(CARTONS_URL, { signal, params: { ...filters, page, page_size: pageSize } }),
    placeholderData: keepPreviousData,
  });
