/**
 * GeoJSON (RFC 7946) draws a polygon's outer ring anticlockwise; d3-geo reads rings on the sphere and
 * takes an anticlockwise small ring for "everything but this area". The plots are rewound for d3 (outer
 * rings clockwise, holes anticlockwise) so a plot is drawn, bounded and labelled where it is.
 */
import type { Geometry, Position } from 'geojson';
import type { PlotCollection } from './traceApi';

/** Twice the planar signed area of a ring in [longitude, latitude]: positive when anticlockwise. */
export function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i += 1) {
    const [x1 = 0, y1 = 0] = ring[i] ?? [];
    const [x2 = 0, y2 = 0] = ring[i + 1] ?? [];
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

function wound(ring: Position[], clockwise: boolean): Position[] {
  const anticlockwise = signedArea(ring) > 0;
  return anticlockwise === clockwise ? [...ring].reverse() : ring;
}

function polygonForD3(rings: Position[][]): Position[][] {
  return rings.map((ring, index) => wound(ring, index === 0));
}

export function geometryForD3(geometry: Geometry | null): Geometry | null {
  if (!geometry) return geometry;
  switch (geometry.type) {
    case 'Polygon':
      return { ...geometry, coordinates: polygonForD3(geometry.coordinates) };
    case 'MultiPolygon':
      return { ...geometry, coordinates: geometry.coordinates.map(polygonForD3) };
    case 'GeometryCollection':
      return { ...geometry, geometries: geometry.geometries.map((g) => geometryForD3(g) as Geometry) };
    default:
      return geometry;
  }
}

export function plotsForD3(plots: PlotCollection): PlotCollection {
  return { ...plots, features: plots.features.map((feature) => ({ ...feature, geometry: geometryForD3(feature.geometry) as Geometry })) };
}
