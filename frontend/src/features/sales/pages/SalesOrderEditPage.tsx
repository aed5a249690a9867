import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { useSalesOrder, type SalesOrderDetail } from '../api/sales';
import { DetailPage } from '@/shared/components/DetailPage';
import { SalesOrderForm } from '../components/SalesOrderForm';
import { useMayPermission } from '../hooks/usePermission';
import { paths } from '@/shared/routing/paths';

/** /sales/orders/{id}/edit: a draft in the new-order page's form. Any other status gets a notice and
 * the way back (the server refuses the save too, should the draft be confirmed while it is open). */
export default function SalesOrderEditPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const orderId = Number(id);
  const query = useSalesOrder(orderId, { frozen: true });
  return (
    <DetailPage query={query} invalid={!Number.isFinite(orderId)} notFound={t('detail.notFound')} backTo={paths.salesOrders()} backLabel={t('detail.backToList')}>
      {(order) => <EditView order={order} />}
    </DetailPage>
  );
}

function EditView({ order }: { order: SalesOrderDetail }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const mayChange = useMayPermission('salesorders.change_salesorder');
  const back = <Button onClick={() => void navigate(paths.salesOrder(order.id))}>{t('edit.backToOrder')}</Button>;
  return (
    <PageContainer title={t('edit.title', { number: order.order_number })}>
      {!mayChange ? (
        <Alert type="warning" showIcon title={t('edit.noPermission')} action={back} data-testid="edit-refused" />
      ) : order.status !== 'draft' ? (
        <Alert
          type="info"
          showIcon
          title={t('edit.notDraft', { number: order.order_number, status: t(`status.${order.status}`) })}
          action={back}
          data-testid="edit-refused"
        />
      ) : (
        <SalesOrderForm order={order} />
      )}
    </PageContainer>
  );
}
