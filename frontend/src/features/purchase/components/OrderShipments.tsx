import { Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useFormatters } from '@/shared/utils/format';
import { useOrderShipments } from '../api/orders';
import type { OrderShipment, ShipmentStatus } from '../api/types';

const COLORS: Record<ShipmentStatus, string> = {
  planned: 'default',
  in_transit: 'processing',
  arrived: 'warning',
  received: 'success',
};

/** The inbound shipments carrying one order. */
export function OrderShipments({ orderId }: { orderId: number }) {
  const { t } = useTranslation('purchase');
  const f = useFormatters();
  const shipments = useOrderShipments(orderId);
  if (shipments.isError) return <ErrorState error={shipments.error} onRetry={() => void shipments.refetch()} />;
  return (
    <Table<OrderShipment>
      rowKey="id"
      size="small"
      loading={shipments.isLoading}
      dataSource={shipments.data?.results ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('detail.noShipments')} /> }}
      data-testid="order-shipments"
      columns={[
        {
          title: t('shipments.container'),
          dataIndex: 'container_number',
          render: (value: string, s) =>
            s.tracking_url ? (
              <a href={s.tracking_url} target="_blank" rel="noreferrer noopener">
                {value}
              </a>
            ) : (
              value
            ),
        },
        { title: t('shipments.carrier'), key: 'carrier', render: (_, s) => s.shipment_company_detail?.name ?? '—' },
        { title: t('shipments.vessel'), key: 'vessel', render: (_, s) => [s.vessel, s.voyage].filter(Boolean).join(' / ') || '—' },
        {
          title: t('shipments.route'),
          key: 'route',
          render: (_, s) => [s.port_of_loading, s.port_of_discharge].filter(Boolean).join(' → ') || '—',
        },
        { title: t('shipments.etd'), dataIndex: 'etd', render: (v: string | null) => f.date(v) },
        { title: t('shipments.eta'), dataIndex: 'eta', render: (v: string | null) => f.date(v) },
        {
          title: t('shipments.status'),
          dataIndex: 'status',
          render: (status: ShipmentStatus) => <Tag color={COLORS[status]}>{t(`shipments.status_${status}`)}</Tag>,
        },
        { title: t('shipments.cartons'), dataIndex: 'cartons_count', align: 'right' },
      ]}
    />
  );
}
