import { geoBounds, geoCentroid } from 'd3-geo';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import type { PlotCollection } from './traceApi';
import { geometryForD3, plotsForD3, signedArea } from './winding';

/** A plot near Teixeira de Freitas, Bahia, as the server stores it (RFC 7946: outer ring anticlockwise). */
const RFC_PLOT: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [-39.6124, -17.8421],
      [-39.5974, -17.8421],
      [-39.5974, -17.8311],
      [-39.6124, -17.8311],
      [-39.6124, -17.8421],
    ],
  ],
};

describe('plots rewound for d3-geo', () => {
  it('turns an RFC 7946 outer ring clockwise, so d3 bounds the plot and not the rest of the world', () => {
    expect(signedArea(RFC_PLOT.coordinates[0] ?? [])).toBeGreaterThan(0);
    // As stored, d3 reads the ring as the whole globe minus the plot.
    expect(geoBounds(RFC_PLOT)[0][0]).toBe(-180);
    const rewound = geometryForD3(RFC_PLOT) as Polygon;
    expect(signedArea(rewound.coordinates[0] ?? [])).toBeLessThan(0);
    const [[west, south], [east, north]] = geoBounds(rewound);
    expect(west).toBeCloseTo(-39.6124, 3);
    expect(east).toBeCloseTo(-39.5974, 3);
    expect(south).toBeCloseTo(-17.8421, 3);
    expect(north).toBeCloseTo(-17.8311, 3);
    const [lon, lat] = geoCentroid(rewound);
    expect(lon).toBeCloseTo(-39.605, 2);
    expect(lat).toBeCloseTo(-17.837, 2);
  });

  it('keeps clockwise rings, winds holes the other way and leaves points alone', () => {
    const outer = [...(RFC_PLOT.coordinates[0] ?? [])].reverse();
    const hole = [
      [-39.61, -17.84],
      [-39.6, -17.84],
      [-39.6, -17.835],
      [-39.61, -17.84],
    ];
    const rewound = geometryForD3({ type: 'MultiPolygon', coordinates: [[outer, hole]] });
    expect(rewound?.type).toBe('MultiPolygon');
    const [rings] = (rewound as { coordinates: number[][][][] }).coordinates;
    expect(rings?.[0]).toEqual(outer);
    expect(signedArea(rings?.[1] ?? [])).toBeGreaterThan(0);
    const plots: PlotCollection = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { Area: 2 }, geometry: { type: 'Point', coordinates: [-42.5, -19.4] } }],
    };
    expect(plotsForD3(plots).features[0]?.geometry).toEqual({ type: 'Point', coordinates: [-42.5, -19.4] });
  });
});
