/** The 2020 forest check's layers (installation-wide GeoTIFFs, processed in the background) and the
 * annual review and report (docs/duediligence.md). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, download, get, post, type UploadProgress } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';
import { RAW_MATERIALS_URL } from './endpoints';
import { DUE_DILIGENCE_URL } from './dueDiligence';

export type ForestLayer = components['schemas']['ForestLayer'];
export type ForestResult = components['schemas']['ForestResult'];
export type ForestLayerKind = components['schemas']['ForestLayerKindEnum'];
export type AnnualFigures = components['schemas']['AnnualFigures'];

export const FOREST_LAYERS_URL = `${DUE_DILIGENCE_URL}forest-layers/`;
export const ANNUAL_REPORT_URL = `${DUE_DILIGENCE_URL}annual-report/`;
export const VIEW_LAYERS = 'duediligence.view_forestlayer';
export const MANAGE_LAYERS = 'duediligence.manage_forestlayer';
export const LAYER_KINDS: ForestLayerKind[] = ['forest_2020', 'loss_year'];
/** How often the list is read again while a layer is being processed. */
export const POLL_MS = 2000;

const busy = (layer: ForestLayer) => (layer.status === 'uploaded' || layer.status === 'processing') && !layer.stale;

export function useForestLayers(pollMs = POLL_MS) {
  return useQuery({
    queryKey: [FOREST_LAYERS_URL],
    queryFn: ({ signal }) => get<ForestLayer[]>(FOREST_LAYERS_URL, { signal }),
    refetchInterval: (query) => ((query.state.data ?? []).some(busy) ? pollMs : false),
  });
}

export interface LayerUpload {
  file: File;
  name: string;
  kind: ForestLayerKind;
  source: string;
  layer_date: string;
}

/** Uploads a GeoTIFF as multipart; `onProgress` receives 0..100. */
export function uploadLayer(input: LayerUpload, onProgress?: (percent: number) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('file', input.file);
  form.append('name', input.name);
  form.append('kind', input.kind);
  form.append('source', input.source);
  form.append('layer_date', input.layer_date);
  return post<ForestLayer>(FOREST_LAYERS_URL, form, {
    signal,
    timeout: 0,
    onUploadProgress: (event: UploadProgress) => {
      const total = event.total ?? input.file.size;
      if (onProgress && total > 0) onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    },
  });
}

/** A new or deleted layer changes the list and every delivery's forest results. */
function useInvalidateLayers() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: [FOREST_LAYERS_URL] }), client.invalidateQueries({ queryKey: [RAW_MATERIALS_URL, DUE_DILIGENCE_URL] })]);
}

export function useUploadLayer(onProgress: (percent: number) => void) {
  const invalidate = useInvalidateLayers();
  return useMutation({
    mutationFn: (input: LayerUpload) => uploadLayer(input, onProgress),
    onSettled: () => invalidate(),
  });
}

export function useProcessAgain() {
  const invalidate = useInvalidateLayers();
  return useMutation({
    mutationFn: (id: number) => post<ForestLayer>(`${FOREST_LAYERS_URL}${id}/process-again/`),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteLayer() {
  const invalidate = useInvalidateLayers();
  return useMutation({
    mutationFn: (id: number) => del(`${FOREST_LAYERS_URL}${id}/`),
    onSuccess: () => invalidate(),
  });
}

/** The map of one plot over its layer (PNG), fetched with the session's credentials. */
export function useForestMap(deliveryId: number, resultId: number, enabled: boolean) {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [RAW_MATERIALS_URL, DUE_DILIGENCE_URL, 'forest-map', deliveryId, resultId, tenantId],
    queryFn: ({ signal }) => download(`${DUE_DILIGENCE_URL}deliveries/${deliveryId}/forest/${resultId}/map/`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useAnnualFigures(year: number) {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [ANNUAL_REPORT_URL, year, tenantId],
    queryFn: ({ signal }) => get<AnnualFigures>(`${ANNUAL_REPORT_URL}figures/?year=${year}`, { signal }),
  });
}

export const annualReportUrl = (year: number, language: 'en' | 'zh') => `${ANNUAL_REPORT_URL}?year=${year}&language=${language}`;
