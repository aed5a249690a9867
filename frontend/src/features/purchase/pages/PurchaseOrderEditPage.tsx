import { Alert, Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useOrderByNumber } from '../api/orders';
import { OrderForm } from '../components/OrderForm';
import { paths } from '@/shared/routing/paths';

/** /purchase/orders/{orderNumber}/edit: open and on-hold orders only (the server refuses the rest). */
export default function PurchaseOrderEditPage() {
  const { t } = useTranslation('purchase');
  const { orderNumber } = useParams();
  const navigate = useNavigate();
  const query = useOrderByNumber(orderNumber);

  if (query.isLoading) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return (
        <Result
          status="404"
          title={t('detail.notFound', { orderNumber })}
          subTitle={t('detail.notFoundHint')}
          extra={<Button onClick={() => void navigate(paths.purchaseOrders())}>{t('detail.backToList')}</Button>}
        />
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const order = query.data;
  if (!order) return null;
  return (
    <PageContainer title={t('form.editTitle', { orderNumber: order.order_number })}>
      {order.lines_editable ? (
        <OrderForm order={order} />
      ) : (
        <Alert
          type="info"
          showIcon
          title={t('detail.readOnly', { status: t(`status.${order.status}`) })}
          action={<Button onClick={() => void navigate(paths.purchaseOrder(order.order_number))}>{t('detail.backToList')}</Button>}
        />
      )}
    </PageContainer>
  );
}
