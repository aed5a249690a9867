import { Button, Flex, Image, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/shared/utils/format';
import { type ForestResult, useForestMap } from '../../api/forestLayers';
import styles from '../eudr.module.css';

/** The 2020 forest check of the delivery's plots: per plot and layer, the forest share in 2020 or the
 * tree-cover loss after 2020, with the layer's name and date; the plot drawn over its layer on demand. */
export function ForestCheck({ deliveryId, results }: { deliveryId: number; results: ForestResult[] }) {
  const { t } = useTranslation('dueDiligence');
  if (results.length === 0) {
    return (
      <Typography.Paragraph type="secondary" className={styles.section} data-testid="dd-forest-none">
        {t('forest.none')}
      </Typography.Paragraph>
    );
  }
  return (
    <ul className={`${styles.plainList} ${styles.section}`} data-testid="dd-forest">
      {results.map((result) => (
        <ForestRow key={result.id} deliveryId={deliveryId} result={result} />
      ))}
    </ul>
  );
}

function ForestRow({ deliveryId, result }: { deliveryId: number; result: ForestResult }) {
  const { t, i18n } = useTranslation('dueDiligence');
  const [showMap, setShowMap] = useState(false);
  const plot = t('forest.plot', { n: result.plot_index + 1 }) + (result.plot_id ? ` (${result.plot_id})` : '');
  const layer = [result.layer_name, result.layer_source, formatDate(result.layer_date, i18n.language)].filter(Boolean).join(' · ');
  let finding;
  if (result.layer_kind === 'forest_2020') {
    finding =
      result.forest_share === null ? (
        <Tag>{t('forest.noData')}</Tag>
      ) : (
        <Tag color={result.forest_share > 0 ? 'green' : 'default'}>{t('forest.share', { percent: Math.round(result.forest_share * 100) })}</Tag>
      );
  } else if (result.loss_after_cutoff) {
    finding = <Tag color="red">{t('forest.loss', { count: result.loss_cells_after_cutoff, years: result.loss_years.join(', ') })}</Tag>;
  } else {
    finding = <Tag color="green">{t('forest.noLoss')}</Tag>;
  }
  return (
    <li className={styles.fileRow} data-testid={`dd-forest-${result.id}`}>
      <Flex vertical flex={1} gap={4}>
        <span>
          <Typography.Text strong>{plot}</Typography.Text> {finding}
        </span>
        <Typography.Text type="secondary">{t('forest.layer', { layer, cells: result.cells })}</Typography.Text>
        {showMap ? <ForestMap deliveryId={deliveryId} result={result} alt={`${plot} · ${result.layer_name}`} /> : null}
      </Flex>
      <Button size="small" onClick={() => setShowMap((v) => !v)} aria-expanded={showMap} data-testid={`dd-forest-map-${result.id}`}>
        {showMap ? t('forest.hideMap') : t('forest.showMap')}
      </Button>
    </li>
  );
}

function ForestMap({ deliveryId, result, alt }: { deliveryId: number; result: ForestResult; alt: string }) {
  const { t } = useTranslation('dueDiligence');
  const query = useForestMap(deliveryId, result.id, true);
  const blob = query.data?.blob;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (query.isError) return <Typography.Text type="secondary">{t('forest.mapUnavailable')}</Typography.Text>;
  if (!url) return <Skeleton.Image active />;
  return (
    <figure className={styles.section}>
      <Image src={url} alt={alt} width={256} data-testid={`dd-forest-image-${result.id}`} />
      <figcaption>
        <Typography.Text type="secondary">{t(result.layer_kind === 'forest_2020' ? 'forest.legendForest' : 'forest.legendLoss')}</Typography.Text>
      </figcaption>
    </figure>
  );
}
