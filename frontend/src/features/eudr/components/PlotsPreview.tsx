import { Typography } from 'antd';
import type { GeoJsonObject as MapGeoJson } from 'geojson';
import { useTranslation } from 'react-i18next';
import { LazyPlotMap } from '@/shared/map/LazyPlotMap';
import type { GeoJsonObject, GeoJsonProblem } from '../api/types';
import styles from './eudr.module.css';
import { featureCount } from './wizard/wizardModel';

interface Props {
  geojson: GeoJsonObject | null;
  /** Computed area per feature in ha (the validation's `areas_ha`). */
  areas?: (number | null)[];
  problems?: GeoJsonProblem[];
  selected?: number | null;
  onSelect?: (feature: number) => void;
  height?: number;
}

/** The plots on the offline map (loaded on demand), with their count. */
export function PlotsPreview({ geojson, areas, problems, selected, onSelect, height = 360 }: Props) {
  const { t } = useTranslation('eudr');
  return (
    <div className={styles.plotMap} data-testid="plots-preview">
      <Typography.Paragraph type="secondary">{t('geometry.featureCount', { count: featureCount(geojson) })}</Typography.Paragraph>
      <LazyPlotMap plots={geojson as MapGeoJson | null} areas={areas} problems={problems} selected={selected} onSelect={onSelect} height={height} />
    </div>
  );
}
