import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/shared/session/useSession';
import { plotsCheckQueryOptions } from '../api/dds';
import type { RawMaterial } from '../api/types';
import styles from './eudr.module.css';
import { GeometryProblems } from './GeometryProblems';
import { PlotsPreview } from './PlotsPreview';

/** The delivery's plots on the map, with what the EU geolocation rules find in them, per plot. */
export function PlotsCard({ material }: { material: RawMaterial }) {
  const { t } = useTranslation('eudr');
  const tenant = useSession((s) => s.tenantId);
  const [selected, setSelected] = useState<number | null>(null);
  const geojson = material.location_geojson;
  const check = useQuery({ ...plotsCheckQueryOptions(tenant, material), enabled: Boolean(geojson) });
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
          <PlotsPreview
            geojson={check.data?.feature_collection ?? geojson}
            areas={check.data?.areas_ha}
            problems={check.data?.problems}
            selected={selected}
            onSelect={setSelected}
          />
          {check.data ? <GeometryProblems problems={check.data.problems} onSelectFeature={setSelected} /> : null}
        </>
      ) : (
        <Empty description={t('detail.noPlots')} />
      )}
    </Card>
  );
}
