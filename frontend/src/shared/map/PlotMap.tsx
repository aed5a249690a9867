/**
 * PlotMap: the plots of a delivery on a Leaflet map that needs no tile server (a bundled world outline
 * lies under the GeoJSON plots), so it works offline. Polygons are drawn as they are; a point plot as a
 * circle of its declared area (4 ha when none). Each plot has a popup with its properties, its computed
 * area and its problems; plots with problems are drawn in the warning or error colour. The map fits the
 * plots. Props are documented in frontend/README.md ("PlotMap").
 */
import 'leaflet/dist/leaflet.css';
import { AimOutlined } from '@ant-design/icons';
import { Button, Tooltip, theme } from 'antd';
import type { GeoJsonObject } from 'geojson';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './PlotMap.module.css';
import {
  plotFeatures,
  plotStatus,
  pointRadiusMetres,
  problemsByFeature,
  propertyRows,
  undrawableCount,
  type IndexedFeature,
  type PlotProblems,
  type PlotStatus,
} from './plotMapModel';
import { worldOutline } from './worldOutline';

export interface PlotMapProps {
  /** The plots: a FeatureCollection (best: the validation's normalised `feature_collection`), a Feature or a geometry. */
  plots: GeoJsonObject | null | undefined;
  /** Computed area per feature index in hectares (the validation's `areas_ha`); falls back to `properties.area_ha`. */
  areas?: (number | null)[];
  /** The validation's `problems` (or problems keyed by feature index): those plots are highlighted. */
  problems?: PlotProblems;
  /** CSS height of the map (default 360). */
  height?: number | string;
  /** Opens this plot's popup and zooms to it. */
  selected?: number | null;
  /** Called with the feature index when a plot is clicked. */
  onSelect?: (index: number) => void;
  className?: string;
}

function cell(tag: 'th' | 'td', text: string) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

export function PlotMap({ plots, areas, problems, height = 360, selected, onSelect, className }: PlotMapProps) {
  const { t, i18n } = useTranslation('map');
  const { token } = theme.useToken();
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const landRef = useRef<L.GeoJSON | null>(null);
  const bordersRef = useRef<L.GeoJSON | null>(null);
  const plotsRef = useRef<L.GeoJSON | null>(null);
  const layersByIndex = useRef(new Map<number, L.Layer>());
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  const features = useMemo(() => plotFeatures(plots), [plots]);
  const undrawable = useMemo(() => undrawableCount(plots), [plots]);
  const keyedProblems = useMemo(() => problemsByFeature(problems), [problems]);

  const colours: Record<PlotStatus, string> = useMemo(
    () => ({ ok: token.colorSuccess, warning: token.colorWarning, error: token.colorError }),
    [token.colorSuccess, token.colorWarning, token.colorError],
  );

  // The map and its world outline, once.
  useEffect(() => {
    if (!container.current) return undefined;
    const map = L.map(container.current, {
      attributionControl: false,
      worldCopyJump: true,
      minZoom: 1,
      maxZoom: 19,
      zoomSnap: 0.25,
    }).setView([20, 0], 2);
    L.control.scale({ imperial: false }).addTo(map);
    const outline = worldOutline();
    const canvas = L.canvas({ padding: 0.5 });
    // GeoJSON layers pass their options on to the paths they create, renderer included.
    const outlineOptions = { renderer: canvas, interactive: false } as L.GeoJSONOptions;
    landRef.current = L.geoJSON(outline.land, outlineOptions).addTo(map);
    bordersRef.current = L.geoJSON(outline.borders, outlineOptions).addTo(map);
    mapRef.current = map;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => map.invalidateSize());
    observer?.observe(container.current);
    return () => {
      observer?.disconnect();
      map.remove();
      mapRef.current = null;
    };
  }, []);

  // Theme colours of the outline (light and dark).
  useEffect(() => {
    if (container.current) container.current.style.background = token.colorInfoBg;
    landRef.current?.setStyle({ color: token.colorBorder, weight: 0.8, fillColor: token.colorBgContainer, fillOpacity: 1 });
    bordersRef.current?.setStyle({ color: token.colorBorder, weight: 0.6, dashArray: '3 3', fill: false });
  }, [token.colorBorder, token.colorBgContainer, token.colorInfoBg]);

  // The plots' layer, built from the data (Leaflet refusing a geometry leaves the outline usable).
  const drawn = useMemo(() => {
    if (!features.length) return null;
    const number = new Intl.NumberFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-GB', { maximumFractionDigits: 4 });
    const styleOf = (feature: IndexedFeature | undefined): L.PathOptions => {
      const status = plotStatus(keyedProblems[feature?.properties.__plotIndex ?? -1]);
      return {
        color: colours[status],
        fillColor: colours[status],
        weight: status === 'ok' ? 2 : 3,
        fillOpacity: 0.25,
        dashArray: status === 'error' ? '6 4' : undefined,
        className: `plot-map-plot plot-map-${status}`,
      };
    };
    const popupOf = (feature: IndexedFeature) => {
      const index = feature.properties.__plotIndex;
      const box = document.createElement('div');
      box.className = styles.popup ?? '';
      const title = document.createElement('h4');
      title.textContent = t('plot', { n: index + 1 });
      box.append(title);
      const table = document.createElement('table');
      const area = areas?.[index] ?? (typeof feature.properties.area_ha === 'number' ? feature.properties.area_ha : null);
      const rows = propertyRows(feature.properties);
      if (area !== null && area !== undefined) rows.push([t('computedArea'), t('hectares', { value: number.format(area) })]);
      for (const [label, value] of rows) {
        const row = document.createElement('tr');
        row.append(cell('th', label), cell('td', value));
        table.append(row);
      }
      box.append(table);
      for (const severity of ['error', 'warning'] as const) {
        const found = (keyedProblems[index] ?? []).filter((p) => p.severity === severity);
        if (!found.length) continue;
        const heading = document.createElement('strong');
        heading.textContent = t(severity === 'error' ? 'errors' : 'warnings');
        heading.style.color = colours[severity];
        const list = document.createElement('ul');
        for (const problem of found) list.append(Object.assign(document.createElement('li'), { textContent: problem.message }));
        box.append(heading, list);
      }
      return box;
    };
    const byIndex = new Map<number, L.Layer>();
    try {
      const layer = L.geoJSON({ type: 'FeatureCollection', features } as GeoJSON.FeatureCollection, {
        style: (feature) => styleOf(feature as IndexedFeature | undefined),
        pointToLayer: (feature: IndexedFeature, latlng) => {
          const style = styleOf(feature);
          return L.featureGroup([
            L.circle(latlng, { ...style, radius: pointRadiusMetres(feature.properties.Area) }),
            L.circleMarker(latlng, { ...style, radius: 5, fillOpacity: 0.9, dashArray: undefined }),
          ]);
        },
        onEachFeature: (feature: IndexedFeature, featureLayer) => {
          const index = feature.properties.__plotIndex;
          featureLayer.bindPopup(() => popupOf(feature));
          byIndex.set(index, featureLayer);
        },
      });
      return { layer, byIndex, failed: false };
    } catch {
      return { layer: null, byIndex, failed: true };
    }
  }, [features, keyedProblems, areas, colours, t, i18n.language]);

  // The plots on the map.
  useEffect(() => {
    const map = mapRef.current;
    const layer = drawn?.layer;
    plotsRef.current = layer ?? null;
    layersByIndex.current = drawn?.byIndex ?? new Map<number, L.Layer>();
    if (!map || !layer) return undefined;
    for (const [index, featureLayer] of drawn.byIndex) featureLayer.on('click', () => onSelectRef.current?.(index));
    layer.addTo(map);
    const bounds = layer.getBounds();
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
    return () => {
      layer.remove();
    };
  }, [drawn]);

  // The selected plot.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || selected === null || selected === undefined) return;
    const layer = layersByIndex.current.get(selected);
    if (!layer) return;
    const bounds = 'getBounds' in layer ? (layer as L.FeatureGroup).getBounds() : null;
    if (bounds?.isValid()) map.fitBounds(bounds, { padding: [32, 32], maxZoom: 17 });
    layer.openPopup();
  }, [selected, drawn]);

  const fitAll = () => {
    const bounds = plotsRef.current?.getBounds();
    if (bounds?.isValid()) mapRef.current?.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
  };

  return (
    <div className={`${styles.wrap} ${className ?? ''}`} style={{ height, border: `1px solid ${token.colorBorderSecondary}` }} data-testid="plot-map">
      <div ref={container} className={styles.map} role="region" aria-label={t('label')} />
      {undrawable > 0 || drawn?.failed ? (
        <div className={styles.note} data-testid="plot-map-undrawable">
          <span style={{ background: token.colorWarningBg, color: token.colorWarningText }}>
            {drawn?.failed ? t('drawFailed') : t('undrawable', { count: undrawable })}
          </span>
        </div>
      ) : null}
      {features.length ? (
        <Tooltip title={t('fit')}>
          <Button className={styles.fit} size="small" icon={<AimOutlined />} onClick={fitAll} aria-label={t('fit')} />
        </Tooltip>
      ) : (
        <div className={styles.empty}>
          <span style={{ background: token.colorBgContainer, color: token.colorTextSecondary }}>{t('noPlots')}</span>
        </div>
      )}
    </div>
  );
}
