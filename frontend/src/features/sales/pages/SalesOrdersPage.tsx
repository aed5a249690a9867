import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Progress, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { useMayPermission } from '../hooks/usePermission';
import { useFormatters } from '@/shared/utils/format';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import {
  CUSTOMERS_URL,
  ORDER_STATUSES,
  ORDERS_URL,
  fetchCustomer,
  searchCustomers,
  type CustomerOption,
  type SalesOrder,
} from '../api/sales';
import { OrderStatusTag } from '../components/StatusTags';
import { formatDate } from '@/shared/utils/format';
import { paths } from '@/shared/routing/paths';

const customerOption = (c: CustomerOption) => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const idOf = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined);

/** /sales/orders: every sales order, filtered by status and customer, searched, sorted and exported. */
export default function SalesOrdersPage() {
  const { t, i18n } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const phone = usePhone();
  const mayAdd = useMayPermission('salesorders.add_salesorder');

  // On a phone (below 576px): the number with its customer, and the total with the order's status.
  // No sideways scrolling.
  const columns: ServerColumn<SalesOrder>[] = [
    {
      title: t('fields.order_number'),
      dataIndex: 'order_number',
      sorter: true,
      fixed: 'left',
      render: (value: string, order) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          <PhoneLine>{order.customer_detail.name}</PhoneLine>
        </>
      ),
    },
    { title: t('fields.order_date'), dataIndex: 'order_date', sorter: true, hidden: phone, render: (v: string) => formatDate(v, i18n.language) },
    {
      title: t('fields.customer'),
      key: 'customer__name',
      sorter: true,
      hidden: phone,
      render: (_, order) => (
        <>
          {order.customer_detail.name}
          <br />
          <Typography.Text type="secondary">{order.customer_detail.number}</Typography.Text>
        </>
      ),
    },
    { title: t('fields.customer_reference'), dataIndex: 'customer_reference', hidden: phone, render: (v: string) => v || '—' },
    { title: t('fields.status'), dataIndex: 'status', sorter: true, hidden: phone, render: (_, order) => <OrderStatusTag status={order.status} /> },
    {
      title: t('fields.total_gross'),
      dataIndex: 'total_gross',
      sorter: true,
      align: 'right',
      render: (value: string, order) => (
        <>
          {f.money(value, order.currency)}
          <PhoneLine secondary={false}>
            <OrderStatusTag status={order.status} />
          </PhoneLine>
        </>
      ),
    },
    {
      title: t('list.progress'),
      key: 'progress',
      hidden: phone,
      render: (_, order) => {
        const ordered = Number(order.ordered_qty);
        const shipped = ordered > 0 ? Math.round((Number(order.shipped_qty) / ordered) * 100) : 0;
        const invoiced = ordered > 0 ? Math.round((Number(order.invoiced_qty) / ordered) * 100) : 0;
        return <Progress percent={Math.min(100, shipped)} success={{ percent: Math.min(100, invoiced) }} size="small" aria-label={t('list.progress')} />;
      },
    },
    { title: t('fields.owner'), dataIndex: 'owner_name', hidden: phone, render: (value: string) => value || '—' },
  ];

  return (
    <PageContainer
      extra={
        mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(paths.salesOrderNew())} data-testid="new-sales-order">
            {t('list.new')}
          </Button>
        ) : null
      }
    >
      <Card>
        <ServerTable<SalesOrder>
          endpoint={ORDERS_URL}
          rowKey="id"
          columns={columns}
          listOptions={{ defaultOrdering: '-order_date' }}
          searchPlaceholder={t('list.searchOrders')}
          exportFileName="sales-orders"
          onRowClick={(order) => void navigate(paths.salesOrder(order.id))}
          filters={(params) => (
            <Flex gap="small" wrap>
              <Select
                allowClear
                style={{ minWidth: 180 }}
                aria-label={t('list.statusFilter')}
                placeholder={t('list.statusFilter')}
                value={typeof params.filters.status === 'string' ? params.filters.status : undefined}
                onChange={(value?: string) => params.setFilter('status', value ?? null)}
                options={ORDER_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
              />
              <RemoteSelect<CustomerOption>
                queryKey={CUSTOMERS_URL}
                search={searchCustomers}
                fetchOne={fetchCustomer}
                toOption={customerOption}
                allowClear
                style={{ minWidth: 220 }}
                aria-label={t('list.customerFilter')}
                placeholder={t('list.customerFilter')}
                value={idOf(params.filters.customer)}
                onChange={(value) => params.setFilter('customer', value === undefined ? null : String(value))}
              />
            </Flex>
          )}
        />
      </Card>
    </PageContainer>
  );
}
