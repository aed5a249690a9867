/** What PlotMap draws, as plain functions (tested without a browser map). */
import type { Feature, FeatureCollection, GeoJsonObject, Geometry } from 'geojson';

/** One finding of the GeoJSON validation (POST /api/eudr/geojson/validate/ `problems[]`). */
export interface PlotProblem {
  feature: number | null;
  code: string;
  message: string;
  severity: 'error' | 'warning';
  position?: number[] | null;
}

/** Problems as the API lists them, or already keyed by feature index. */
export type PlotProblems = PlotProblem[] | Record<number, PlotProblem[]>;

export type PlotStatus = 'ok' | 'warning' | 'error';

export interface IndexedFeature extends Feature<Geometry, Record<string, unknown>> {
  properties: Record<string, unknown> & { __plotIndex: number };
}

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'Polygon', 'MultiPolygon', 'LineString', 'MultiLineString', 'GeometryCollection']);

/** A FeatureCollection / Feature / bare geometry as features carrying their index (null geometries kept out). */
export function plotFeatures(plots: GeoJsonObject | null | undefined): IndexedFeature[] {
  if (!plots || typeof plots !== 'object') return [];
  let features: Feature[] = [];
  if (plots.type === 'FeatureCollection') features = (plots as FeatureCollection).features ?? [];
  else if (plots.type === 'Feature') features = [plots as Feature];
  else if (GEOMETRY_TYPES.has(plots.type)) features = [{ type: 'Feature', properties: {}, geometry: plots as Geometry }];
  return features.flatMap((feature, index) =>
    feature?.geometry
      ? [{ ...feature, geometry: feature.geometry, properties: { ...(feature.properties ?? {}), __plotIndex: index } }]
      : [],
  );
}

export function problemsByFeature(problems: PlotProblems | null | undefined): Record<number, PlotProblem[]> {
  if (!problems) return {};
  if (!Array.isArray(problems)) return problems;
  const keyed: Record<number, PlotProblem[]> = {};
  for (const problem of problems) {
    if (problem.feature === null || problem.feature === undefined) continue;
    (keyed[problem.feature] ??= []).push(problem);
  }
  return keyed;
}

export function plotStatus(problems: PlotProblem[] | undefined): PlotStatus {
  if (!problems?.length) return 'ok';
  return problems.some((p) => p.severity === 'error') ? 'error' : 'warning';
}

/** Radius in metres of a circle of `areaHa` hectares (a point plot drawn to scale; 4 ha when unknown). */
export function pointRadiusMetres(areaHa: unknown): number {
  const area = typeof areaHa === 'number' && Number.isFinite(areaHa) && areaHa > 0 ? areaHa : 4;
  return Math.sqrt((area * 10_000) / Math.PI);
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

export const PLOT_PROPERTIES = ['ProducerName', 'ProducerCountry', 'ProductionPlace', 'Area'] as const;

/** Rows of a plot's popup: the EU properties first, then any other property the file carries. */
export function propertyRows(properties: Record<string, unknown>): [string, string][] {
  const rows: [string, string][] = [];
  const seen = new Set<string>(['__plotIndex', 'area_ha']);
  for (const key of PLOT_PROPERTIES) {
    const value = text(properties[key]);
    if (value !== null) rows.push([key, value]);
    seen.add(key);
  }
  for (const [key, raw] of Object.entries(properties)) {
    const value = text(raw);
    if (!seen.has(key) && value !== null) rows.push([key, value]);
  }
  return rows;
}
