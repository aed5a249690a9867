import type { GeoJsonObject } from 'geojson';
import { describe, expect, it } from 'vitest';
import { isDrawableGeometry, plotFeatures, plotStatus, pointRadiusMetres, problemsByFeature, propertyRows, undrawableCount } from './plotMapModel';

const square = { type: 'Polygon', coordinates: [[[1, 1], [2, 1], [2, 2], [1, 1]]] };
const point = { type: 'Point', coordinates: [108.4, 22.9] };

describe('plotMapModel', () => {
  it('indexes features by their position in the file and leaves out null geometries', () => {
    const plots = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { ProducerName: 'A' }, geometry: square },
        { type: 'Feature', properties: {}, geometry: null },
        { type: 'Feature', properties: null, geometry: point },
      ],
    } as unknown as GeoJsonObject;
    const features = plotFeatures(plots);
    expect(features.map((f) => f.properties.__plotIndex)).toEqual([0, 2]);
    expect(features[0]?.properties.ProducerName).toBe('A');
    expect(undrawableCount(plots)).toBe(0);
  });

  it('keeps JSON that is not drawable GeoJSON off the map and counts it', () => {
    const plots = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[['a', 1], [2, 1]]] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [1] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[1, 2]] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Circle', coordinates: [1, 2] } },
        { type: 'Feature', properties: {}, geometry: point },
      ],
    } as unknown as GeoJsonObject;
    expect(plotFeatures(plots).map((f) => f.properties.__plotIndex)).toEqual([4]);
    expect(undrawableCount(plots)).toBe(4);
    expect(plotFeatures({ type: 'FeatureCollection', features: 'nope' } as unknown as GeoJsonObject)).toEqual([]);
    expect(plotFeatures({ type: 'Nope' } as unknown as GeoJsonObject)).toEqual([]);
  });

  it('accepts every drawable geometry type, nested as the type says', () => {
    expect(isDrawableGeometry(point)).toBe(true);
    expect(isDrawableGeometry(square)).toBe(true);
    expect(isDrawableGeometry({ type: 'MultiPolygon', coordinates: [square.coordinates] })).toBe(true);
    expect(isDrawableGeometry({ type: 'MultiPolygon', coordinates: square.coordinates })).toBe(false);
    expect(isDrawableGeometry({ type: 'LineString', coordinates: [[0, 0], [1, 1]] })).toBe(true);
    expect(isDrawableGeometry({ type: 'GeometryCollection', geometries: [point, square] })).toBe(true);
    expect(isDrawableGeometry({ type: 'GeometryCollection', geometries: [point, { type: 'Point' }] })).toBe(false);
    expect(isDrawableGeometry({ type: 'Point', coordinates: [Number.NaN, 1] })).toBe(false);
  });

  it('groups problems by feature and colours a plot by its worst problem', () => {
    const keyed = problemsByFeature([
      { feature: 0, code: 'a', message: 'A', severity: 'warning' },
      { feature: 0, code: 'b', message: 'B', severity: 'error' },
      { feature: null, code: 'c', message: 'C', severity: 'error' },
      { feature: 2, code: 'd', message: 'D', severity: 'warning' },
    ]);
    expect(Object.keys(keyed)).toEqual(['0', '2']);
    expect(plotStatus(keyed[0])).toBe('error');
    expect(plotStatus(keyed[2])).toBe('warning');
    expect(plotStatus(keyed[1])).toBe('ok');
  });

  it('draws a point plot to scale and lists the EU properties first', () => {
    expect(pointRadiusMetres(Math.PI / 10_000)).toBeCloseTo(1);
    expect(pointRadiusMetres(undefined)).toBeCloseTo(Math.sqrt(40_000 / Math.PI));
    expect(propertyRows({ Extra: 'x', Area: 2, ProducerName: 'P', __plotIndex: 0, nested: {} })).toEqual([
      ['ProducerName', 'P'],
      ['Area', '2'],
      ['Extra', 'x'],
    ]);
  });
});
