/** The bundled world outline under the plots (world-atlas 50m countries, Natural Earth): no tile server,
 * so the map works offline. Decoded once, on first use. */
import type { Feature, FeatureCollection, MultiLineString } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'world-atlas/countries-50m.json';

let decoded: { land: FeatureCollection | Feature; borders: MultiLineString } | null = null;

export function worldOutline() {
  if (!decoded) {
    const topology = countries as unknown as Topology;
    const objects = topology.objects.countries as GeometryCollection;
    decoded = { land: feature(topology, objects), borders: mesh(topology, objects, (a, b) => a !== b) };
  }
  return decoded;
}
