import { Button, Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useFormatters } from '@/shared/utils/format';
import { useDelivery, type Delivery } from '../api/sales';
import { DetailPage } from '@/shared/components/DetailPage';
import { OrderStatusTag } from '../components/StatusTags';
import { paths } from '@/shared/routing/paths';

/** /sales/deliveries/{id}: one order line still to ship, with its due date and what is planned. */
export default function SalesDeliveryDetailPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const deliveryId = Number(id);
  const query = useDelivery(deliveryId);
  const navigate = useNavigate();
  return (
    <DetailPage
      query={query}
      invalid={!Number.isFinite(deliveryId)}
      notFound={t('deliveries.notFound')}
      backTo={paths.salesDeliveries()}
      backLabel={t('detail.backToList')}
      title={(d) => `${d.order_number} / ${d.line_number}`}
      extra={(d) => <Button onClick={() => void navigate(paths.salesOrder(d.order))}>{d.order_number}</Button>}
    >
      {(delivery) => <DeliveryView d={delivery} />}
    </DetailPage>
  );
}

function DeliveryView({ d }: { d: Delivery }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  return (
    <Card>
      <Descriptions column={{ xs: 1, sm: 2 }}>
        <Descriptions.Item label={t('fields.customer')}>{d.customer_name}</Descriptions.Item>
        <Descriptions.Item label={t('fields.status')}>
          <OrderStatusTag status={d.order_status as never} />
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.product')}>
          {d.product_number} {d.product_name}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.warehouse')}>{d.warehouse_code || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('fields.due')}>
          <Typography.Text type={d.is_late ? 'danger' : undefined}>{f.date(d.due_date)}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.requested_date')}>{f.date(d.requested_date)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.confirmed_date')}>{f.date(d.confirmed_date)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.quantity')}>{f.qty(d.quantity)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.shipped')}>{f.qty(d.quantity_shipped)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.reserved')}>{f.qty(d.quantity_reserved)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.open_quantity')}>{f.qty(d.open_quantity)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.planned_quantity')}>
          {f.qty(d.planned_quantity)} {d.planned_date ? `(${f.date(d.planned_date)})` : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('fields.status')}>{t(`scheduleStatus.${d.schedule_status}`)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
