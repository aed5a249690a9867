/**
 * PlotMap loaded on demand: Leaflet and the world outline are a chunk of their own, fetched when a
 * page first shows a map (they stay out of the signed-in bundle). A chunk that cannot load leaves a
 * note instead of breaking the page.
 */
import { Skeleton, Typography } from 'antd';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlotMapProps } from './PlotMap';

const PlotMap = lazy(() => import('./PlotMap').then((module) => ({ default: module.PlotMap })));

class MapBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function Unavailable() {
  const { t } = useTranslation('map');
  return <Typography.Text type="secondary">{t('unavailable')}</Typography.Text>;
}

export function LazyPlotMap(props: PlotMapProps) {
  const height = props.height ?? 360;
  return (
    <MapBoundary fallback={<Unavailable />}>
      <Suspense
        fallback={
          <div style={{ height }} data-testid="plot-map-loading">
            <Skeleton.Node active style={{ width: '100%', height }} />
          </div>
        }
      >
        <PlotMap {...props} />
      </Suspense>
    </MapBoundary>
  );
}
