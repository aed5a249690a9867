/** The public carton lookup: no session, no tenant (the carton's code decides it). */
import type { Feature, FeatureCollection, Geometry } from 'geojson';

export interface TraceSpecies {
  scientific_name: string;
  common_name: string;
}

export interface TraceCertification {
  kind: 'FM' | 'COC';
  scheme: string;
  claim: string;
  certificate_number: string;
  valid_until: string | null;
}

export interface PlotProperties {
  ProducerName?: string;
  ProducerCountry?: string;
  ProductionPlace?: string;
  Area?: number;
  area_ha?: number | null;
}

export type PlotFeature = Feature<Geometry, PlotProperties>;
export type PlotCollection = FeatureCollection<Geometry, PlotProperties>;

/** GET /api/eudrtrack/{code}/ `data` (apps/eudr/api/public_views.py PublicTraceSerializer). */
export interface TraceData {
  code: string;
  article_number: string;
  product_name: string;
  product_name_zh: string;
  production_batch_code: string;
  production_date: string | null;
  batch_sequence: number;
  supplier: { name: string; cname: string };
  origin: {
    country_code: string;
    country_name: string;
    species: TraceSpecies[];
    forest_supplier_name: string;
    harvest_begin_month: string;
    harvest_end_month: string;
  };
  certifications: TraceCertification[];
  geolocation_confidential: boolean;
  /** A plot lies outside its country of production and is being checked: `plots` is then null. */
  plots_under_review?: boolean;
  plots: PlotCollection | null;
  dds_reference_number: string;
  /** `own`: the company's statement; `upstream`: another operator's, which the paper came under. */
  dds_reference_kind?: 'own' | 'upstream' | '';
  /** The carton's warehouse steps (kind, date, country); never the customer. Absent from older answers. */
  warehouse_history?: WarehouseStep[];
}

/** One public warehouse step (apps/eudr/api/public_views.py PublicWarehouseStepSerializer; the trace page
 *  is its own light entry and does not import the app's generated types). */
export interface WarehouseStep {
  /** received, stocked, put_away, shipped or delivered */
  kind: string;
  date: string;
  country_code: string;
}

export type TraceResult =
  | { kind: 'found'; data: TraceData }
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string | null };

export function traceCodeFromPath(pathname: string): string | null {
  const match = /^\/eudrtrace\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

function isTraceData(value: unknown): value is TraceData {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.code === 'string' && typeof record.origin === 'object' && record.origin !== null;
}

export async function fetchTrace(code: string, language: string, fetcher: typeof fetch = fetch): Promise<TraceResult> {
  try {
    const response = await fetcher(`/api/eudrtrack/${encodeURIComponent(code)}/`, {
      headers: { Accept: 'application/json', 'Accept-Language': language },
    });
    if (response.status === 404) return { kind: 'not-found' };
    const body: unknown = await response.json().catch(() => null);
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
    if (!response.ok) {
      return { kind: 'failed', message: typeof record?.message === 'string' ? record.message : null };
    }
    const data = record && 'data' in record ? record.data : body;
    return isTraceData(data) ? { kind: 'found', data } : { kind: 'failed', message: null };
  } catch {
    return { kind: 'failed', message: null };
  }
}
