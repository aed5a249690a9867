import { Alert, Card, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useListParams } from '@/shared/hooks/useListParams';
import { resolveParentVendor } from '@/shared/session/parentVendor';
import { parentVendorName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { ORDERS_URL } from '../api/endpoints';
import { useOrderByNumber } from '../api/orders';
import type { PurchaseOrder } from '../api/types';
import { OrderLinesTable } from '../components/OrderLinesTable';
import { OrderStatusTabs } from '../components/OrderStatusTabs';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { useFormatters } from '../lib/format';
import styles from '../components/purchase.module.css';

function OrderLines({ orderNumber }: { orderNumber: string }) {
  const { t } = useTranslation('purchase');
  const query = useOrderByNumber(orderNumber);
  if (query.isLoading) return <Skeleton active title={false} paragraph={{ rows: 2 }} aria-label={t('portal.linesLoading')} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return query.data ? <OrderLinesTable order={query.data} compact /> : null;
}

/**
 * /supplier/orders: a supplier user's purchase orders, read-only (the server returns only their parent
 * vendor's). Internal users reaching it with a parent vendor (route or ?pv=) see that vendor's orders.
 */
export default function SupplierOrdersPage() {
  const { t, i18n } = useTranslation('purchase');
  const f = useFormatters();
  const { parentVendorId } = useParams();
  const [query] = useSearchParams();
  const user = useSession((s) => s.userInfo);
  const stored = useSession((s) => s.parentVendorId);
  const resolved = resolveParentVendor({ user, routeParam: parentVendorId, queryPv: query.get('pv'), stored });
  const list = useListParams({ defaultOrdering: '-order_date', filterKeys: ['status'] });
  const vendorFilter = resolved.id ? { parent_vendor: resolved.id } : {};
  const vendorName = parentVendorName(user?.parent_vendor, i18n.language);

  const columns: ServerColumn<PurchaseOrder>[] = [
    {
      title: t('fields.order_number'),
      dataIndex: 'order_number',
      sorter: true,
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    { title: t('fields.order_date'), dataIndex: 'order_date', sorter: true },
    { title: t('fields.supplier'), key: 'supplier__name', sorter: true, render: (_, o) => o.supplier_detail.name },
    { title: t('fields.status'), dataIndex: 'status', render: (_, o) => <OrderStatusTag status={o.status} /> },
    { title: t('fields.type'), dataIndex: 'type', render: (value: string) => t(`type.${value}`) },
    { title: t('fields.promise_date'), dataIndex: 'promise_date', sorter: true, render: (v: string | null) => v ?? '—' },
    {
      title: t('fields.total_amount'),
      dataIndex: 'total_amount',
      sorter: true,
      align: 'right',
      render: (value: string, o) => f.money(value, o.currency),
    },
    { title: t('fields.lines'), dataIndex: 'lines_count', align: 'right' },
    { title: t('fields.cartons_issued'), dataIndex: 'cartons_issued', align: 'right' },
  ];

  if (!resolved.id && user?.is_supplier) {
    return (
      <PageContainer>
        <Alert type="warning" showIcon title={t('portal.noVendor')} />
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <Typography.Paragraph type="secondary" className={styles.intro}>
        {vendorName ? t('portal.intro', { vendor: vendorName }) : t('portal.introNoVendor')}
      </Typography.Paragraph>
      <Card>
        <OrderStatusTabs list={list} extraParams={vendorFilter} />
        <ServerTable<PurchaseOrder>
          endpoint={resolved.id ? `${ORDERS_URL}?parent_vendor=${encodeURIComponent(resolved.id)}` : ORDERS_URL}
          queryKeyExtra={['portal', resolved.id]}
          rowKey="id"
          columns={columns}
          listOptions={{ defaultOrdering: '-order_date', filterKeys: ['status'] }}
          searchPlaceholder={t('portal.searchPlaceholder')}
          exportable={false}
          tableProps={{
            expandable: {
              expandRowByClick: true,
              expandedRowRender: (order) => <OrderLines orderNumber={order.order_number} />,
            },
          }}
          filters={() => null}
        />
      </Card>
    </PageContainer>
  );
}
