import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GeoJsonObject, GeoJsonProblem } from '../api/types';
import { featureCount } from './wizard/wizardModel';

interface Props {
  geojson: GeoJsonObject | null;
  problems?: GeoJsonProblem[];
}

/** The plots on a map (the shared offline map lands with the geolocation work). */
export function PlotsPreview({ geojson }: Props) {
  const { t } = useTranslation('eudr');
  return <Typography.Text type="secondary">{t('geometry.featureCount', { count: featureCount(geojson) })}</Typography.Text>;
}
