import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Progress, Select, Typography } from 'antd';
import dayjs from '@/shared/utils/dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useListParams } from '@/shared/hooks/useListParams';
import { ORDER_OWNERS_URL, ORDERS_URL } from '../api/endpoints';
import { fetchOwner, searchOwners } from '../api/orders';
import { ORDER_TYPES, isReceivable, type OwnerOption, type PurchaseOrder } from '../api/types';
import { OrderStatusTabs } from '../components/OrderStatusTabs';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { useMayPermission } from '@/shared/session/permissions';
import { PURCHASE_PERMS } from '../permissions';
import { useFormatters } from '@/shared/utils/format';
import { idFilter, ownerOption } from '../lib/options';
import styles from '../components/purchase.module.css';
import { useSeesPrices } from '@/shared/session/prices';
import { formatDate } from '@/shared/utils/format';
import { paths } from '@/shared/routing/paths';

/** /purchase/orders: every purchase order, with status tabs, totals, search, sort and export. */
export default function PurchaseOrdersPage() {
  const { t, i18n } = useTranslation('purchase');
  const navigate = useNavigate();
  const f = useFormatters();
  const seesPrices = useSeesPrices();
  const list = useListParams({ defaultOrdering: '-order_date' });
  const mayAdd = useMayPermission(PURCHASE_PERMS.add);
  const today = dayjs().format('YYYY-MM-DD');
  const phone = usePhone();

  // On a phone (below 576px): the number with its supplier and order date under it, and the status
  // with the total (for those who see prices) and the promise date under it.
  const columns: ServerColumn<PurchaseOrder>[] = [
    {
      title: t('fields.order_number'),
      dataIndex: 'order_number',
      sorter: true,
      fixed: phone ? undefined : 'left',
      render: (value: string, order) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          <PhoneLine>{order.supplier_detail.name}</PhoneLine>
          <PhoneLine>{formatDate(order.order_date, i18n.language)}</PhoneLine>
        </>
      ),
    },
    { title: t('fields.order_date'), dataIndex: 'order_date', sorter: true, hidden: phone, render: (v: string) => formatDate(v, i18n.language) },
    {
      title: t('fields.supplier'),
      key: 'supplier__name',
      sorter: true,
      hidden: phone,
      render: (_, order) => (
        <>
          {order.supplier_detail.name}
          <br />
          <Typography.Text type="secondary">
            {order.supplier_detail.number} ·{' '}
            {i18n.language === 'zh' && order.supplier_detail.parent_vendor.cname
              ? order.supplier_detail.parent_vendor.cname
              : order.supplier_detail.parent_vendor.name}
          </Typography.Text>
        </>
      ),
    },
    { title: t('fields.type'), dataIndex: 'type', sorter: true, hidden: phone, render: (value: string) => t(`type.${value}`) },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      render: (_, order) => (
        <>
          <OrderStatusTag status={order.status} />
          {seesPrices ? <PhoneLine>{f.money(order.total_amount, order.currency)}</PhoneLine> : null}
          {order.promise_date ? (
            <PhoneLine secondary={false}>
              <Typography.Text type={isReceivable(order.status) && order.promise_date < today ? 'danger' : 'secondary'}>
                {f.date(order.promise_date)}
              </Typography.Text>
            </PhoneLine>
          ) : null}
        </>
      ),
    },
    {
      title: t('fields.promise_date'),
      dataIndex: 'promise_date',
      sorter: true,
      hidden: phone,
      render: (value: string | null, order) =>
        value ? (
          <Typography.Text type={isReceivable(order.status) && value < today ? 'danger' : undefined}>{formatDate(value, i18n.language)}</Typography.Text>
        ) : (
          '—'
        ),
    },
    ...(seesPrices ? [{
      title: t('fields.total_amount'),
      dataIndex: 'total_amount',
      sorter: true,
      align: 'right',
      hidden: phone,
      render: (value: string, order) => f.money(value, order.currency),
    } satisfies ServerColumn<PurchaseOrder>] : []),
    {
      title: t('list.progress'),
      key: 'progress',
      hidden: phone,
      render: (_, order) => {
        const ordered = Number(order.ordered_qty);
        const percent = ordered > 0 ? Math.min(100, Math.round((Number(order.received_qty) / ordered) * 100)) : 0;
        return <Progress className={styles.progress} percent={percent} size="small" aria-label={t('list.progress')} status={percent === 100 ? 'success' : 'normal'} />;
      },
    },
    { title: t('fields.owner'), dataIndex: 'owner_name', hidden: phone, render: (value: string) => value || '—' },
    { title: t('fields.lines'), dataIndex: 'lines_count', align: 'right', hidden: phone },
  ];

  return (
    <PageContainer
      extra={
        mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(paths.purchaseOrderNew())} data-testid="new-order">
            {t('list.new')}
          </Button>
        ) : null
      }
    >
      <Card>
        <OrderStatusTabs list={list} />
        <ServerTable<PurchaseOrder>
          endpoint={ORDERS_URL}
          rowKey="id"
          columns={columns}
          listOptions={{ defaultOrdering: '-order_date' }}
          searchPlaceholder={t('list.searchPlaceholder')}
          exportFileName="purchase-orders"
          onRowClick={(order) => void navigate(paths.purchaseOrder(order.order_number))}
          filters={(params) => (
            <Flex gap="small" wrap>
              <Select
                allowClear
                placeholder={t('list.type')}
                aria-label={t('list.type')}
                value={typeof params.filters.type === 'string' ? params.filters.type : undefined}
                onChange={(value?: string) => params.setFilter('type', value ?? null)}
                options={ORDER_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
                className={styles.progress}
              />
              <RemoteSelect<OwnerOption>
                queryKey={ORDER_OWNERS_URL}
                search={searchOwners}
                fetchOne={async (id, signal) => (await fetchOwner(id, signal)).results[0]}
                toOption={ownerOption}
                allowClear
                placeholder={t('list.owner')}
                aria-label={t('list.owner')}
                value={idFilter(params.filters.owner)}
                onChange={(value) => params.setFilter('owner', value === undefined ? null : String(value))}
                className={styles.filter}
                data-testid="orders-owner-filter"
              />
            </Flex>
          )}
        />
      </Card>
    </PageContainer>
  );
}
