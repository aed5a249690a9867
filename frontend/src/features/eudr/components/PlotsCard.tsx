import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/shared/session/useSession';
import { validateGeoJson } from '../api/dds';
import type { RawMaterial } from '../api/types';
import styles from './eudr.module.css';
import { GeometryProblems } from './GeometryProblems';
import { PlotsPreview } from './PlotsPreview';

/** The delivery's plots on the map, with what the EU geolocation rules find in them. */
export function PlotsCard({ material }: { material: RawMaterial }) {
  const { t } = useTranslation('eudr');
  const tenant = useSession((s) => s.tenantId);
  const geojson = material.location_geojson;
  const check = useQuery({
    queryKey: ['eudr', 'plots-check', tenant, material.id, material.updated_at],
    queryFn: () => validateGeoJson(geojson ?? { type: 'FeatureCollection', features: [] }),
    enabled: Boolean(geojson),
    staleTime: Infinity,
  });
  return (
    <Card
      title={t('detail.plots')}
      size="small"
      className={styles.section}
      extra={material.geolocation_confidential ? <Tag color="warning">{t('detail.confidential')}</Tag> : null}
      data-testid="plots-card"
    >
      {geojson ? (
        <>
          <PlotsPreview geojson={check.data?.feature_collection ?? geojson} problems={check.data?.problems} />
          {check.data ? <GeometryProblems problems={check.data.problems} /> : null}
        </>
      ) : (
        <Empty description={t('detail.noPlots')} />
      )}
    </Card>
  );
}
