/** The due diligence package and GeoJSON validation (issue "EUDR traceability II"). */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { download, get, post } from '@/api/http';
import { saveBlob } from '@/shared/utils/saveFile';
import { GEOJSON_VALIDATE_URL, rawMaterialUrl } from './endpoints';
import type { DdsChecks, DdsJob, GeoJsonObject, GeoJsonValidation, RawMaterial } from './types';

/** Starts a package job; missing information answers 400 `dds_information_missing` with {errors, warnings}. */
export const startDdsPackage = (id: number) => post<DdsJob>(`${rawMaterialUrl(id)}dds-package/`);

export const fetchDdsChecks = (id: number) => get<DdsChecks>(`${rawMaterialUrl(id)}dds-package/checks/`);

export const fetchDdsJob = (id: number, jobId: string) => get<DdsJob>(`${rawMaterialUrl(id)}dds-package/${jobId}/`);

export async function downloadDdsPackage(id: number, jobId: string, fallbackName: string) {
  const file = await download(`${rawMaterialUrl(id)}dds-package/${jobId}/download/`);
  saveBlob(file.blob, file.fileName ?? fallbackName);
}

/** The body is the GeoJSON itself; the answer lists the problems per feature (always 200 when readable). */
export const validateGeoJson = (geojson: GeoJsonObject) => post<GeoJsonValidation>(GEOJSON_VALIDATE_URL, geojson);

export function useValidateGeoJson() {
  return useMutation({ mutationFn: validateGeoJson });
}

/** What the delivery's due diligence package still needs, as the saved delivery stands. */
export const ddsChecksQueryOptions = (tenant: string | null, material: Pick<RawMaterial, 'id' | 'updated_at'>) =>
  queryOptions({
    queryKey: ['eudr', 'dds-checks', tenant, material.id, material.updated_at],
    queryFn: () => fetchDdsChecks(material.id),
    staleTime: 30_000,
  });

/** What the EU geolocation rules find in the delivery's plots. */
export const plotsCheckQueryOptions = (tenant: string | null, material: Pick<RawMaterial, 'id' | 'updated_at' | 'location_geojson'>) =>
  queryOptions({
    queryKey: ['eudr', 'plots-check', tenant, material.id, material.updated_at],
    queryFn: () => validateGeoJson(material.location_geojson ?? { type: 'FeatureCollection', features: [] }),
    staleTime: Infinity,
  });
