import { ArrowLeftOutlined, EditOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Result, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { useMayViewCartons } from '@/shared/cartons/CartonList';
import { CommentsPanel } from '@/shared/comments/CommentsPanel';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useDeleteOrder, useOrderByNumber } from '../api/orders';
import { OrderLinesTable } from '../components/OrderLinesTable';
import { OrderReceipts } from '../components/OrderReceipts';
import { OrderShipments } from '../components/OrderShipments';
import { OrderStatusActions } from '../components/OrderStatusActions';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { ReceiveDialog } from '../components/ReceiveDialog';
import { isReceivable } from '../api/types';
import { useOrderPortal } from '../hooks/useOrderPortal';
import { useMayPermission } from '@/shared/session/permissions';
import { PURCHASE_PERMS } from '../permissions';
import { useFormatters } from '@/shared/utils/format';
import styles from '../components/purchase.module.css';
import { useSeesPrices } from '@/shared/session/prices';
import { paths } from '@/shared/routing/paths';

/**
 * /purchase/orders/{orderNumber}: header, lines (expanding into their cartons), receipts, shipments,
 * comments and status actions. In the supplier portal (/supplier/orders/{orderNumber}) and for supplier
 * users the same order read-only: no actions, receipts without links into the warehouse pages.
 * `?receive=1` opens the receive dialog of an open order (the receipts list's entry point).
 */
export default function PurchaseOrderDetailPage() {
  const { t, i18n } = useTranslation('purchase');
  const { orderNumber } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { message } = App.useApp();
  const f = useFormatters();
  const seesPrices = useSeesPrices();
  const portal = useOrderPortal();
  const query = useOrderByNumber(orderNumber);
  const remove = useDeleteOrder();
  const internal = !portal.supplier;
  const [receiving, setReceiving] = useState(params.get('receive') === '1');
  const mayChange = useMayPermission(PURCHASE_PERMS.change) && internal;
  const mayDelete = useMayPermission(PURCHASE_PERMS.delete) && internal;
  const mayReceive = useMayPermission(PURCHASE_PERMS.receive) && internal;
  const mayViewCartons = useMayViewCartons();

  const backButton = portal.supplier ? (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(portal.listPath)} data-testid="back-to-orders">
      {t('portal.backToList')}
    </Button>
  ) : null;

  if (query.isLoading) {
    return (
      <PageContainer title={orderNumber}>
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
          extra={
            <Button onClick={() => void navigate(portal.listPath)}>{portal.supplier ? t('portal.backToList') : t('detail.backToList')}</Button>
          }
          data-testid="order-not-found"
        />
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const order = query.data;
  if (!order) return null;
  const vendor = order.supplier_detail.parent_vendor;
  const final = !order.lines_editable;

  const closeReceive = () => {
    setReceiving(false);
    if (params.has('receive')) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('receive');
          return next;
        },
        { replace: true },
      );
    }
  };

  return (
    <PageContainer
      title={`${t('nav:routes.purchaseOrder')} ${order.order_number}`}
      extra={
        <>
          {backButton}
          <OrderStatusActions order={order} mayChange={mayChange} />
          {mayReceive && isReceivable(order.status) ? (
            <Button type="primary" icon={<InboxOutlined />} onClick={() => setReceiving(true)} data-testid="receive-goods">
              {t('detail.receive')}
            </Button>
          ) : null}
          {mayChange && order.lines_editable ? (
            <Button icon={<EditOutlined />} onClick={() => void navigate(paths.purchaseOrderEdit(order.order_number))} data-testid="edit-order">
              {t('detail.edit')}
            </Button>
          ) : null}
          {mayDelete && order.status !== 'received' && order.status !== 'closed' && order.received_qty === '0.000' ? (
            <ConfirmDelete
              itemLabel={order.order_number}
              onConfirm={async () => {
                await remove.mutateAsync(order.id);
                void message.success(t('detail.deleted'));
                void navigate(paths.purchaseOrders());
              }}
            />
          ) : null}
        </>
      }
    >
      <Card className={styles.section}>
        <Descriptions
          column={{ xs: 1, sm: 2, lg: 3 }}
          size="small"
          items={[
            { key: 'status', label: t('fields.status'), children: <OrderStatusTag status={order.status} /> },
            { key: 'order_date', label: t('fields.order_date'), children: f.date(order.order_date) },
            { key: 'promise_date', label: t('fields.promise_date'), children: f.date(order.promise_date) },
            {
              key: 'supplier',
              label: t('fields.supplier'),
              children: `${order.supplier_detail.number} · ${order.supplier_detail.name}`,
            },
            {
              key: 'vendor',
              label: t('fields.parent_vendor'),
              children: i18n.language === 'zh' && vendor.cname ? vendor.cname : vendor.name,
            },
            { key: 'type', label: t('fields.type'), children: t(`type.${order.type}`) },
            ...(seesPrices
              ? [
                  {
                    key: 'total',
                    label: t('fields.total_amount'),
                    children: <strong data-testid="order-total-amount">{f.money(order.total_amount, order.currency)}</strong>,
                  },
                ]
              : []),
            { key: 'owner', label: t('fields.owner'), children: <span data-testid="order-owner">{order.owner_name || '—'}</span> },
            { key: 'cartons', label: t('fields.cartons_issued'), children: order.cartons_issued },
            { key: 'description', label: t('fields.description'), children: order.description || '—', span: 'filled' },
          ]}
        />
      </Card>
      {final ? (
        <Alert className={styles.section} type="info" showIcon title={t('detail.readOnly', { status: t(`status.${order.status}`) })} />
      ) : null}
      <Card>
        <Tabs
          items={[
            {
              key: 'lines',
              label: t('detail.tabs.lines'),
              children: <OrderLinesTable order={order} expandCartons={mayViewCartons} />,
            },
            {
              key: 'receipts',
              label: t('detail.tabs.receipts'),
              children: <OrderReceipts orderId={order.id} linkReceipts={internal} />,
            },
            { key: 'shipments', label: t('detail.tabs.shipments'), children: <OrderShipments orderId={order.id} /> },
            {
              key: 'comments',
              label: t('detail.tabs.comments'),
              children: <CommentsPanel contentType="purchaseorder" objectId={order.id} />,
            },
          ]}
        />
      </Card>
      {mayReceive && receiving && isReceivable(order.status) ? <ReceiveDialog order={order} open onClose={closeReceive} /> : null}
    </PageContainer>
  );
}
