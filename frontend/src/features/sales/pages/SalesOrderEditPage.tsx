import { Alert, Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { orderPath, useSalesOrder } from '../api/sales';
import { SalesOrderForm } from '../components/SalesOrderForm';
import { useMayPermission } from '../hooks/usePermission';

/** /sales/orders/{id}/edit: a draft in the new-order page's form. Any other status gets a notice and
 * the way back (the server refuses the save too, should the draft be confirmed while it is open). */
export default function SalesOrderEditPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const orderId = Number(id);
  const navigate = useNavigate();
  const query = useSalesOrder(orderId, { frozen: true });
  const mayChange = useMayPermission('salesorders.change_salesorder');

  if (query.isLoading) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError || !Number.isFinite(orderId)) {
    if (!Number.isFinite(orderId) || (isApiError(query.error) && query.error.status === 404)) {
      return (
        <Result
          status="404"
          title={t('detail.notFound')}
          extra={<Button onClick={() => void navigate('/sales/orders')}>{t('detail.backToList')}</Button>}
        />
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const order = query.data;
  if (!order) return null;
  const back = <Button onClick={() => void navigate(orderPath(order.id))}>{t('edit.backToOrder')}</Button>;
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
