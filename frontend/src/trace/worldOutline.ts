/** The world outline for the trace map: world-atlas's 110m countries, fetched as a static asset (not
 * bundled into the page's JavaScript, which stays small), decoded with topojson-client. */
import type { Feature, FeatureCollection, MultiLineString } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countriesUrl from 'world-atlas/countries-110m.json?url';

export interface WorldOutline {
  land: FeatureCollection | Feature;
  borders: MultiLineString;
}

let pending: Promise<WorldOutline | null> | null = null;

export function loadWorldOutline(fetcher: typeof fetch = fetch): Promise<WorldOutline | null> {
  pending ??= fetcher(countriesUrl)
    .then((response) => (response.ok ? (response.json() as Promise<Topology>) : null))
    .then((topology) => {
      if (!topology) return null;
      const countries = topology.objects.countries as GeometryCollection;
      return {
        land: feature(topology, countries),
        borders: mesh(topology, countries, (a, b) => a !== b),
      };
    })
    .catch(() => {
      pending = null;
      return null;
    });
  return pending;
}
