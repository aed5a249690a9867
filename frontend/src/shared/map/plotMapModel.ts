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

/** Nesting depth of positions in each geometry type's `coordinates`. */
const POSITION_DEPTH: Record<string, number> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  Polygon: 2,
  MultiLineString: 2,
  MultiPolygon: 3,
};

function isPosition(value: unknown): boolean {
  return Array.isArray(value) && value.length >= 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
}

function positionsAt(value: unknown, depth: number): boolean {
  if (depth === 0) return isPosition(value);
  return Array.isArray(value) && value.every((item) => positionsAt(item, depth - 1));
}

/**
 * True when the map can draw the geometry: a known type whose coordinates are nested as the type
 * says, every position numbers. Text typed into the wizard may be JSON that is not (yet) GeoJSON;
 * such plots are left off the map instead of breaking it (the validation names the problem).
 */
export function isDrawableGeometry(geometry: unknown): geometry is Geometry {
  if (!geometry || typeof geometry !== 'object') return false;
  const { type, coordinates, geometries } = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (type === 'GeometryCollection') return Array.isArray(geometries) && geometries.every(isDrawableGeometry);
  const depth = typeof type === 'string' ? POSITION_DEPTH[type] : undefined;
  return depth !== undefined && positionsAt(coordinates, depth);
}

function featuresOf(plots: GeoJsonObject | null | undefined): Feature[] {
  if (!plots || typeof plots !== 'object') return [];
  if (plots.type === 'FeatureCollection') {
    const features = (plots as FeatureCollection).features;
    return Array.isArray(features) ? features : [];
  }
  if (plots.type === 'Feature') return [plots as Feature];
  if (GEOMETRY_TYPES.has(plots.type)) return [{ type: 'Feature', properties: {}, geometry: plots as Geometry }];
  return [];
}

/** A FeatureCollection / Feature / bare geometry as features carrying their index (null and undrawable geometries kept out). */
export function plotFeatures(plots: GeoJsonObject | null | undefined): IndexedFeature[] {
  return featuresOf(plots).flatMap((feature, index) =>
    feature && isDrawableGeometry(feature.geometry)
      ? [
          {
            ...feature,
            type: 'Feature' as const,
            geometry: feature.geometry,
            properties: { ...(feature.properties && typeof feature.properties === 'object' ? feature.properties : {}), __plotIndex: index },
          },
        ]
      : [],
  );
}

/** How many features have a geometry the map cannot draw (null geometries are not counted). */
export function undrawableCount(plots: GeoJsonObject | null | undefined): number {
  return featuresOf(plots).filter((feature) => feature?.geometry && !isDrawableGeometry(feature.geometry)).length;
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
