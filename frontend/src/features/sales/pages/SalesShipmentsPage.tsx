import { Card, Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatters } from '@/shared/utils/format';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { SHIPMENT_STATUSES, SHIPMENTS_URL, type SalesShipment } from '../api/sales';
import { ShipmentPanel } from '../components/ShipmentPanel';
import { ShipmentStatusTag } from '../components/StatusTags';

/** /sales/shipment: every sales shipment; choosing one (?shipment=id, kept in the URL) opens its lines,
 * cartons and actions below the list. */
export default function SalesShipmentsPage() {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  const phone = usePhone();
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('shipment'));

  // On a phone (below 576px): the number with its order and customer, and the status.
  const columns: ServerColumn<SalesShipment>[] = [
    {
      title: t('fields.shipment_number'),
      dataIndex: 'shipment_number',
      sorter: true,
      render: (v: string, s) => (
        <>
          <Typography.Text strong>{v}</Typography.Text>
          <PhoneLine>{s.order_number}</PhoneLine>
          <PhoneLine>{s.customer_name}</PhoneLine>
        </>
      ),
    },
    { title: t('fields.order_number'), dataIndex: 'order_number', hidden: phone },
    { title: t('fields.customer'), dataIndex: 'customer_name', hidden: phone },
    { title: t('fields.status'), dataIndex: 'status', sorter: true, render: (_, s) => <ShipmentStatusTag status={s.status} /> },
    { title: t('fields.planned_date'), dataIndex: 'planned_date', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    { title: t('fields.shipped_at'), dataIndex: 'shipped_at', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    { title: t('fields.quantity'), dataIndex: 'total_qty', align: 'right', hidden: phone, render: (v: string) => f.qty(v) },
    { title: t('fields.cartons'), dataIndex: 'cartons_count', align: 'right', hidden: phone },
  ];

  return (
    <PageContainer>
      <Flex vertical gap="middle">
        <Card>
          <ServerTable<SalesShipment>
            endpoint={SHIPMENTS_URL}
            rowKey="id"
            columns={columns}
            listOptions={{ defaultOrdering: '-created_at', filterKeys: ['status', 'customer', 'sales_order'] }}
            searchPlaceholder={t('list.searchShipments')}
            exportFileName="sales-shipments"
            onRowClick={(s) =>
              setParams((p) => {
                p.set('shipment', String(s.id));
                return p;
              })
            }
            filters={(list) => (
              <Select
                allowClear
                style={{ minWidth: 160 }}
                aria-label={t('list.statusFilter')}
                placeholder={t('list.statusFilter')}
                value={typeof list.filters.status === 'string' ? list.filters.status : undefined}
                onChange={(value?: string) => list.setFilter('status', value ?? null)}
                options={SHIPMENT_STATUSES.map((value) => ({ value, label: t(`shipmentStatus.${value}`) }))}
              />
            )}
          />
        </Card>
        {selected > 0 ? (
          <ShipmentPanel id={selected} showOrder />
        ) : (
          <Typography.Text type="secondary">{t('shipment.select')}</Typography.Text>
        )}
      </Flex>
    </PageContainer>
  );
}
