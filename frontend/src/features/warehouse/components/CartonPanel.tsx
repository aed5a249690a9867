import { Descriptions, Result, Spin, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { useCarton } from '../api/warehouse';
import { formatDateTime } from '@/shared/utils/format';

/** A carton in the warehouse: where it is, its status, and its history (received, moved, picked, shipped). */
export function CartonPanel({ code }: { code: string }) {
  const { t, i18n } = useTranslation('warehouse');
  const carton = useCarton(code);
  if (carton.isPending) return <Spin />;
  if (carton.isError) {
    if (isApiError(carton.error) && carton.error.status === 404) return <Result status="info" title={t('carton.notInWarehouse')} />;
    return <ErrorState error={carton.error} onRetry={() => void carton.refetch()} />;
  }
  const c = carton.data;
  return (
    <>
      {/* antd's Descriptions and Timeline do not pass data-* attributes on: the test ids sit on wrappers */}
      <div data-testid="carton-details">
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('fields.status')}>
          <Tag color={c.status === 'shipped' ? 'default' : 'processing'}>{t(`cartonStatus.${c.status}`, { defaultValue: c.status })}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.article')}>
          {c.article_number} {c.product_name}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.location')}>{c.location_code ? `${c.warehouse_code}/${c.location_code}` : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('fields.purchaseOrders')}>{c.purchase_order}</Descriptions.Item>
        <Descriptions.Item label={t('fields.container')}>{c.container || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('fields.batch')}>{c.production_batch_code}</Descriptions.Item>
      </Descriptions>
      </div>
      <Typography.Title level={5}>{t('carton.history')}</Typography.Title>
      <div data-testid="carton-history">
      <Timeline
        items={c.events.map((e) => ({
          key: e.id,
          children: (
            <>
              <Typography.Text strong>{t(`eventKind.${e.kind}`, { defaultValue: e.kind })}</Typography.Text>{' '}
              <Typography.Text type="secondary">{formatDateTime(e.created_at, i18n.language)}</Typography.Text>
              <div>
                {[e.location_code ? `${e.warehouse_code}/${e.location_code}` : '', e.reference, e.customer_name, e.created_by_name]
                  .filter(Boolean)
                  .join(' · ')}
              </div>
            </>
          ),
        }))}
      />
      </div>
    </>
  );
}
