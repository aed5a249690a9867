/**
 * The plots on an SVG map drawn with d3-geo (no Leaflet, no tiles: the page stays small and works
 * without a map server). The main view is fitted to the plots with some context around them; a small
 * globe in the corner shows where on Earth they are. Point plots are drawn as circles of their declared
 * area (4 ha when none is declared, as the EU rules assume).
 */
import { geoBounds, geoCircle, geoDistance, geoGraticule, geoMercator, geoOrthographic, geoPath } from 'd3-geo';
import type { Geometry, Position } from 'geojson';
import { useEffect, useMemo, useState } from 'react';
import type { PlotCollection, PlotFeature } from './traceApi';
import type { TraceText } from './traceText';
import { plotsForD3 } from './winding';
import { loadWorldOutline, type WorldOutline } from './worldOutline';

const WIDTH = 640;
const HEIGHT = 400;
const GLOBE = 104;
const EARTH_RADIUS_M = 6_371_008.8;
const METRES_PER_DEGREE = 111_320;
const MIN_SPAN_DEGREES = 0.02;
const CONTEXT = 1.8;
const DEFAULT_POINT_AREA_HA = 4;

function pointsOf(geometry: Geometry | null): Position[] {
  if (!geometry) return [];
  if (geometry.type === 'Point') return [geometry.coordinates];
  if (geometry.type === 'MultiPoint') return geometry.coordinates;
  if (geometry.type === 'GeometryCollection') return geometry.geometries.flatMap(pointsOf);
  return [];
}

function niceStep(span: number): number {
  const steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20];
  return steps.find((step) => step >= span / 6) ?? 30;
}

function niceLength(maxMetres: number): number {
  const power = 10 ** Math.floor(Math.log10(maxMetres));
  return [5, 2, 1].map((f) => f * power).find((length) => length <= maxMetres) ?? power;
}

function pointAreaCircle(point: Position, feature: PlotFeature) {
  const area = feature.properties?.Area ?? DEFAULT_POINT_AREA_HA;
  const radiusMetres = Math.sqrt((area * 10_000) / Math.PI);
  return geoCircle()
    .center([point[0] ?? 0, point[1] ?? 0])
    .radius(radiusMetres / METRES_PER_DEGREE)
    .precision(4)();
}

interface Props {
  plots: PlotCollection;
  text: TraceText;
}

export function TraceMap({ plots: rfcPlots, text }: Props) {
  const [world, setWorld] = useState<WorldOutline | null>(null);
  useEffect(() => {
    let active = true;
    void loadWorldOutline().then((outline) => {
      if (active) setWorld(outline);
    });
    return () => {
      active = false;
    };
  }, []);

  const view = useMemo(() => {
    const plots = plotsForD3(rfcPlots);
    const [[west, south], [east, north]] = geoBounds(plots);
    const centre: [number, number] = [(west + east) / 2, (south + north) / 2];
    const span = Math.max(east - west, north - south, MIN_SPAN_DEGREES) * CONTEXT;
    const context = {
      type: 'MultiPoint' as const,
      coordinates: [
        [centre[0] - span / 2, centre[1] - span / 2],
        [centre[0] + span / 2, centre[1] + span / 2],
      ],
    };
    const projection = geoMercator().fitExtent(
      [
        [16, 16],
        [WIDTH - 16, HEIGHT - 16],
      ],
      context,
    );
    const path = geoPath(projection).pointRadius(5);
    const step = niceStep(span);
    const graticule = geoGraticule()
      .extent([
        [centre[0] - span * 2, centre[1] - span * 2],
        [centre[0] + span * 2, centre[1] + span * 2],
      ])
      .step([step, step])();

    // Scale bar: metres per pixel across the middle of the view.
    const left = projection.invert?.([WIDTH / 2 - 50, HEIGHT / 2]);
    const right = projection.invert?.([WIDTH / 2 + 50, HEIGHT / 2]);
    const metresPerPixel = left && right ? (geoDistance(left, right) * EARTH_RADIUS_M) / 100 : 0;
    const scaleMetres = metresPerPixel ? niceLength(metresPerPixel * 140) : 0;
    const scale = {
      width: metresPerPixel ? scaleMetres / metresPerPixel : 0,
      label: scaleMetres >= 1000 ? `${scaleMetres / 1000} km` : `${scaleMetres} m`,
    };

    const features = plots.features.map((feature, index) => {
      const points = pointsOf(feature.geometry);
      const circles = points.map((point) => path(pointAreaCircle(point, feature)) ?? '');
      const [x, y] = path.centroid(feature);
      return { feature, index, d: path(feature) ?? '', circles, label: [x, y] as const };
    });

    const globe = geoOrthographic()
      .rotate([-centre[0], -centre[1]])
      .fitExtent(
        [
          [2, 2],
          [GLOBE - 2, GLOBE - 2],
        ],
        { type: 'Sphere' },
      );
    const globePath = geoPath(globe);
    const marker = globe(centre);
    return { path, graticule, scale, features, globe, globePath, marker };
  }, [rfcPlots]);

  const { path, globePath } = view;
  return (
    <figure className="trace-map">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={text.mapLabel} data-testid="trace-map">
        <rect className="trace-map-water" width={WIDTH} height={HEIGHT} />
        {world ? <path className="trace-map-land" d={path(world.land) ?? ''} /> : null}
        {world ? <path className="trace-map-border" d={path(world.borders) ?? ''} /> : null}
        <path className="trace-map-graticule" d={path(view.graticule) ?? ''} />
        {view.features.map(({ feature, index, d, circles }) => (
          <g key={index} className="trace-map-plot" data-testid="trace-plot">
            {circles.map((circle, n) => (
              <path key={n} className="trace-map-point-area" d={circle} />
            ))}
            <path d={d} />
            <title>{`${text.plot.replace('{{n}}', String(index + 1))}${feature.properties?.ProductionPlace ? ` · ${feature.properties.ProductionPlace}` : ''}`}</title>
          </g>
        ))}
        {view.features.map(({ index, label: [x, y] }) =>
          Number.isFinite(x) && Number.isFinite(y) ? (
            <g key={index} className="trace-map-label" transform={`translate(${x},${y - 14})`}>
              <circle r="9" />
              <text textAnchor="middle" dy="4">
                {index + 1}
              </text>
            </g>
          ) : null,
        )}
        {view.scale.width > 0 ? (
          <g className="trace-map-scale" transform={`translate(16,${HEIGHT - 18})`}>
            <path d={`M0,-6V0H${view.scale.width}V-6`} />
            <text x={view.scale.width + 6} dy="1">
              {view.scale.label}
            </text>
          </g>
        ) : null}
        <g className="trace-map-globe" transform={`translate(${WIDTH - GLOBE - 10},10)`}>
          <path className="trace-map-sphere" d={globePath({ type: 'Sphere' }) ?? ''} />
          {world ? <path className="trace-map-land" d={globePath(world.land) ?? ''} /> : null}
          <path className="trace-map-sphere-edge" d={globePath({ type: 'Sphere' }) ?? ''} />
          {view.marker ? <circle className="trace-map-marker" cx={view.marker[0]} cy={view.marker[1]} r="4" /> : null}
        </g>
      </svg>
    </figure>
  );
}
