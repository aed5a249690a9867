import { EditOutlined, FileDoneOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Flex, InputNumber, Modal, Popconfirm, Progress, Skeleton, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useMayPermission } from '../hooks/usePermission';
import { useFormatters } from '@/shared/utils/format';
import { CommentsPanel } from '@/shared/comments/CommentsPanel';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import {
  useCreateInvoice,
  useCreateShipment,
  useDeleteOrder,
  useOrderAction,
  useOrderInvoices,
  useOrderShipments,
  useSalesOrder,
  type SalesOrderDetail,
} from '../api/sales';
import { DetailPage } from '@/shared/components/DetailPage';
import { ShipmentPanel } from '../components/ShipmentPanel';
import { usePhone } from '@/shared/hooks/usePhone';
import { OrderStatusTag, PaymentStatusTag } from '../components/StatusTags';
import { paths } from '@/shared/routing/paths';

/** /sales/orders/{id}: header, lines with shipped/invoiced progress, shipments (with cartons),
 * invoices, comments, status actions and why the order has its status. */
export default function SalesOrderDetailPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const orderId = Number(id);
  const query = useSalesOrder(orderId);
  return (
    <DetailPage query={query} invalid={!Number.isFinite(orderId)} notFound={t('detail.notFound')} backTo={paths.salesOrders()} backLabel={t('detail.backToList')}>
      {(order) => <OrderView order={order} />}
    </DetailPage>
  );
}

function OrderView({ order }: { order: SalesOrderDetail }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const errorText = useErrorText();
  const act = useOrderAction();
  const remove = useDeleteOrder();
  const createInvoice = useCreateInvoice();
  const [error, setError] = useState<string | null>(null);
  const [shipping, setShipping] = useState(false);
  const mayChange = useMayPermission('salesorders.change_salesorder');
  const mayInvoice = useMayPermission('salesorders.add_invoice');
  const mayShip = useMayPermission('salesorders.add_shipment');
  const mayDelete = useMayPermission('salesorders.delete_salesorder');

  const onError = (err: unknown) => setError(errorText(err));
  const run = (action: 'confirm' | 'cancel' | 'close') => {
    setError(null);
    act.mutate({ id: order.id, action }, { onError });
  };
  const shippable = ['confirmed', 'partially_shipped', 'partially_invoiced'].includes(order.status);
  const hasShipped = Number(order.shipped_qty) > Number(order.invoiced_qty);

  return (
    <PageContainer
      title={
        <Flex gap="small" align="center">
          {order.order_number} <OrderStatusTag status={order.status} />
        </Flex>
      }
      extra={
        <>
          {mayChange && order.status === 'draft' ? (
            <Button icon={<EditOutlined />} onClick={() => void navigate(paths.salesOrderEdit(order.id))} data-testid="edit-order">
              {t('detail.edit')}
            </Button>
          ) : null}
          {mayChange && order.allowed_actions.includes('confirm') ? (
            <Button type="primary" onClick={() => run('confirm')} loading={act.isPending} data-testid="confirm-order">
              {t('detail.confirm')}
            </Button>
          ) : null}
          {mayShip && shippable ? (
            <Button icon={<PlusOutlined />} onClick={() => setShipping(true)} data-testid="new-shipment">
              {t('detail.newShipment')}
            </Button>
          ) : null}
          {mayInvoice && hasShipped ? (
            <Button
              icon={<FileDoneOutlined />}
              loading={createInvoice.isPending}
              onClick={() => createInvoice.mutate({ sales_order: order.id }, { onSuccess: (inv) => void navigate(paths.salesInvoice(inv.id)), onError })}
            >
              {t('detail.invoiceShipped')}
            </Button>
          ) : null}
          {mayChange && order.allowed_actions.includes('close') ? (
            <Popconfirm title={t('detail.confirmClose')} onConfirm={() => run('close')}>
              <Button>{t('detail.close')}</Button>
            </Popconfirm>
          ) : null}
          {mayChange && order.allowed_actions.includes('cancel') ? (
            <Popconfirm title={t('detail.confirmCancel')} onConfirm={() => run('cancel')}>
              <Button danger>{t('detail.cancel')}</Button>
            </Popconfirm>
          ) : null}
          {mayDelete && order.status === 'draft' ? (
            <Popconfirm
              title={t('detail.confirmDelete')}
              onConfirm={() => remove.mutate(order.id, { onSuccess: () => void navigate(paths.salesOrders()), onError })}
            >
              <Button danger type="text">
                {t('detail.delete')}
              </Button>
            </Popconfirm>
          ) : null}
        </>
      }
    >
      {error ? <Alert type="error" showIcon title={error} closable={{ onClose: () => setError(null) }} style={{ marginBottom: 12 }} data-testid="order-error" /> : null}
      <Card style={{ marginBottom: 16 }}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('fields.customer')}>
            {order.customer_detail.number} {order.customer_detail.name}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.order_date')}>{f.date(order.order_date)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.customer_reference')}>{order.customer_reference || '—'}</Descriptions.Item>
          {order.quotation && order.quotation_number ? (
            <Descriptions.Item label={t('quotation.fields.quotation')}>
              <Typography.Link onClick={() => void navigate(paths.salesQuotation(order.quotation as number))} data-testid="order-quotation">
                {order.quotation_number}
              </Typography.Link>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('fields.ship_to')}>
            {[order.ship_to_name, order.ship_to_street, `${order.ship_to_post_code} ${order.ship_to_city}`.trim(), order.ship_to_country]
              .filter(Boolean)
              .join(', ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.payment_terms_days')}>{order.payment_terms_days}</Descriptions.Item>
          <Descriptions.Item label={t('fields.owner')}>{order.owner_name || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.warehouse')}>{order.warehouse_code || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.total_net')}>{f.money(order.total_net, order.currency)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.total_gross')}>
            <Typography.Text strong data-testid="order-total-gross">
              {f.money(order.total_gross, order.currency)}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
        <StatusWhy order={order} />
      </Card>
      <Card>
        <Tabs
          items={[
            { key: 'lines', label: t('detail.lines'), children: <Lines order={order} /> },
            { key: 'shipments', label: t('detail.shipments'), children: <Shipments orderId={order.id} /> },
            { key: 'invoices', label: t('detail.invoices'), children: <Invoices orderId={order.id} /> },
            { key: 'comments', label: t('detail.comments'), children: <CommentsPanel contentType="salesorder" objectId={order.id} /> },
          ]}
        />
      </Card>
      {shipping ? <NewShipmentDialog order={order} onClose={() => setShipping(false)} /> : null}
    </PageContainer>
  );
}

function StatusWhy({ order }: { order: SalesOrderDetail }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  const facts = order.status_explanation;
  const text =
    order.status === 'draft'
      ? t('detail.whyDraft')
      : order.status === 'cancelled'
        ? t('detail.whyCancelled')
        : order.status === 'closed'
          ? t('detail.whyClosed')
          : '';
  return (
    <Alert
      type="info"
      showIcon
      title={t('detail.why')}
      data-testid="status-why"
      description={
        <>
          {text ? <div>{text}</div> : null}
          {t('detail.whyFacts', {
            ordered: f.qty(facts.ordered),
            reserved: f.qty(facts.reserved),
            shipped: f.qty(facts.shipped),
            invoiced: f.qty(facts.invoiced),
          })}
        </>
      }
    />
  );
}

function Lines({ order }: { order: SalesOrderDetail }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  const phone = usePhone();
  return (
    <Table
      rowKey="id"
      size="small"
      pagination={false}
      // on a phone: the product, quantity, amount and progress, fitting the screen; the rest from `sm` up
      scroll={phone ? undefined : { x: 900 }}
      dataSource={order.lines}
      columns={[
        { title: '#', dataIndex: 'line_number', width: 50, responsive: ['sm'] },
        { title: t('fields.product'), key: 'product', render: (_, l) => `${l.product_number} ${l.description || l.product_name}` },
        { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
        { title: t('fields.unit_price'), dataIndex: 'unit_price', align: 'right', render: (v: string) => f.unitCost(v), responsive: ['sm'] },
        { title: t('fields.discount_percent'), dataIndex: 'discount_percent', align: 'right', responsive: ['sm'] },
        { title: t('fields.vat_rate'), dataIndex: 'vat_rate', align: 'right', responsive: ['sm'] },
        { title: t('fields.amount_net'), dataIndex: 'amount_net', align: 'right', render: (v: string) => f.money(v, order.currency) },
        { title: t('fields.requested_date'), dataIndex: 'requested_date', render: (v: string | null) => f.date(v), responsive: ['sm'] },
        { title: t('fields.reserved'), dataIndex: 'quantity_reserved', align: 'right', render: (v: string) => f.qty(v), responsive: ['sm'] },
        {
          title: `${t('fields.shipped')} / ${t('fields.invoiced')}`,
          key: 'progress',
          width: phone ? 110 : 180,
          render: (_, l) => {
            const q = Number(l.quantity);
            return (
              <Progress
                size="small"
                aria-label={`${t('fields.shipped')} / ${t('fields.invoiced')}`}
                percent={q ? Math.round((Number(l.quantity_shipped) / q) * 100) : 0}
                success={{ percent: q ? Math.round((Number(l.quantity_invoiced) / q) * 100) : 0 }}
                format={() => `${f.qty(l.quantity_shipped)} / ${f.qty(l.quantity_invoiced)}`}
              />
            );
          },
        },
      ]}
    />
  );
}

function Shipments({ orderId }: { orderId: number }) {
  const { t } = useTranslation('sales');
  const query = useOrderShipments(orderId);
  if (query.isLoading) return <Skeleton active />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const shipments = query.data?.results ?? [];
  if (shipments.length === 0) return <Typography.Text type="secondary">{t('detail.noShipments')}</Typography.Text>;
  return (
    <Flex vertical gap="middle">
      {shipments.map((s) => (
        <ShipmentPanel key={s.id} id={s.id} />
      ))}
    </Flex>
  );
}

function Invoices({ orderId }: { orderId: number }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const query = useOrderInvoices(orderId);
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Table
      rowKey="id"
      size="small"
      loading={query.isLoading}
      pagination={false}
      locale={{ emptyText: t('detail.noInvoices') }}
      dataSource={query.data?.results ?? []}
      onRow={(inv) => ({ onClick: () => void navigate(paths.salesInvoice(inv.id)), style: { cursor: 'pointer' } })}
      columns={[
        { title: t('fields.number'), key: 'number', render: (_, inv) => inv.number || t('invoice.draftNumber') },
        { title: t('fields.kind'), dataIndex: 'kind', render: (v: string) => t(`kind.${v}`) },
        { title: t('fields.issue_date'), dataIndex: 'issue_date', render: (v: string | null) => f.date(v) },
        { title: t('fields.total_gross'), dataIndex: 'total_gross', align: 'right', render: (v: string, inv) => f.money(v, inv.currency) },
        { title: t('fields.payment_status'), key: 'ps', render: (_, inv) => <PaymentStatusTag status={inv.payment_status} /> },
      ]}
    />
  );
}

function NewShipmentDialog({ order, onClose }: { order: SalesOrderDetail; onClose: () => void }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const create = useCreateShipment();
  const open = order.lines.filter((l) => Number(l.open_quantity) > 0);
  const [quantities, setQuantities] = useState<Record<number, string>>(() =>
    Object.fromEntries(open.map((l) => [l.id, l.open_quantity])),
  );
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const lines = open
      .filter((l) => Number(quantities[l.id]) > 0)
      .map((l) => ({ order_line: l.id, quantity: quantities[l.id] }));
    create.mutate(
      { sales_order: order.id, lines },
      {
        onSuccess: (s) => {
          void message.success(s.shipment_number);
          onClose();
        },
        onError: (err) => setError(errorText(err)),
      },
    );
  };
  return (
    <Modal
      open
      title={t('shipment.createTitle', { number: order.order_number })}
      okText={t('shipment.create')}
      onOk={submit}
      confirmLoading={create.isPending}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'create-shipment' }}
    >
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={open}
        columns={[
          { title: '#', dataIndex: 'line_number', width: 40 },
          { title: t('fields.product'), key: 'p', render: (_, l) => l.product_number },
          { title: t('fields.open_quantity'), dataIndex: 'open_quantity', align: 'right' },
          {
            title: t('fields.quantity'),
            key: 'q',
            render: (_, l) => (
              <InputNumber<string>
                stringMode
                min="0"
                max={l.open_quantity}
                aria-label={t('shipment.quantityOf', { n: l.line_number })}
                value={quantities[l.id]}
                onChange={(v) => setQuantities((all) => ({ ...all, [l.id]: v ?? '' }))}
                data-testid={`ship-qty-${l.line_number}`}
              />
            ),
          },
        ]}
      />
      {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} /> : null}
    </Modal>
  );
}
