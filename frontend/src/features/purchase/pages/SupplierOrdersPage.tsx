import { Alert, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useListParams } from '@/shared/hooks/useListParams';
import { resolveParentVendor } from '@/shared/session/parentVendor';
import { parentVendorName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { ORDERS_URL } from '../api/endpoints';
import { ORDER_STATUSES, type PurchaseOrder } from '../api/types';
import { OrderStatusTabs } from '../components/OrderStatusTabs';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { useOrderPortal } from '../hooks/useOrderPortal';
import { useFormatters } from '@/shared/utils/format';
import styles from '../components/purchase.module.css';
import { useSeesPrices } from '@/shared/session/prices';
import { formatDate } from '@/shared/utils/format';

/** A draft is not the supplier's yet: the portal has no tab for it. */
const SUPPLIER_STATUSES = ORDER_STATUSES.filter((status) => status !== 'draft');

/**
 * /supplier/orders: a supplier user's purchase orders, read-only (the server returns only their parent
 * vendor's); a row opens the order in the portal (/supplier/orders/{orderNumber}). Internal users
 * reaching it with a parent vendor (route or ?pv=) see that vendor's orders.
 */
export default function SupplierOrdersPage() {
  const { t, i18n } = useTranslation('purchase');
  const f = useFormatters();
  const seesPrices = useSeesPrices();
  const navigate = useNavigate();
  const portal = useOrderPortal();
  const { parentVendorId } = useParams();
  const [query] = useSearchParams();
  const user = useSession((s) => s.userInfo);
  const stored = useSession((s) => s.parentVendorId);
  const resolved = resolveParentVendor({ user, routeParam: parentVendorId, queryPv: query.get('pv'), stored });
  const list = useListParams({ defaultOrdering: '-order_date', filterKeys: ['status'] });
  const vendorFilter = resolved.id ? { parent_vendor: resolved.id } : {};
  const vendorName = parentVendorName(user?.parent_vendor, i18n.language);

  // docs/specification.md section 3 "Purchase order (supplier view)", in its order (the order page shows lines and cartons).
  const columns: ServerColumn<PurchaseOrder>[] = [
    {
      title: t('fields.order_number'),
      dataIndex: 'order_number',
      sorter: true,
      fixed: 'left',
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    { title: t('fields.order_date'), dataIndex: 'order_date', sorter: true, render: (v: string) => formatDate(v, i18n.language) },
    {
      title: t('fields.supplier'),
      key: 'supplier__name',
      sorter: true,
      render: (_, o) => (
        <div className={styles.clip}>
          <Typography.Text ellipsis={{ tooltip: o.supplier_detail.name }}>{o.supplier_detail.name}</Typography.Text>
        </div>
      ),
    },
    ...(seesPrices ? [{
      title: t('fields.total_amount'),
      dataIndex: 'total_amount',
      sorter: true,
      align: 'right',
      render: (value: string, o) => f.money(value, o.currency),
    } satisfies ServerColumn<PurchaseOrder>] : []),
    {
      title: t('fields.description'),
      dataIndex: 'description',
      render: (value: string) =>
        value ? (
          <div className={styles.clip}>
            <Typography.Text ellipsis={{ tooltip: value }}>{value}</Typography.Text>
          </div>
        ) : (
          '—'
        ),
    },
    { title: t('fields.type'), dataIndex: 'type', render: (value: string) => t(`type.${value}`) },
    { title: t('fields.promise_date'), dataIndex: 'promise_date', sorter: true, render: (v: string | null) => formatDate(v, i18n.language) },
    { title: t('fields.owner'), dataIndex: 'owner_name', render: (value: string) => value || '—' },
    { title: t('fields.status'), dataIndex: 'status', render: (_, o) => <OrderStatusTag status={o.status} /> },
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
        <OrderStatusTabs list={list} extraParams={vendorFilter} statuses={SUPPLIER_STATUSES} />
        <ServerTable<PurchaseOrder>
          endpoint={resolved.id ? `${ORDERS_URL}?parent_vendor=${encodeURIComponent(resolved.id)}` : ORDERS_URL}
          queryKeyExtra={['portal', resolved.id]}
          rowKey="id"
          columns={columns}
          listOptions={{ defaultOrdering: '-order_date', filterKeys: ['status'] }}
          searchPlaceholder={t('portal.searchPlaceholder')}
          exportable={false}
          onRowClick={(order) => void navigate(portal.detailPath(order.order_number))}
          tableProps={{ scroll: { x: 'max-content' } }}
          filters={() => null}
        />
      </Card>
    </PageContainer>
  );
}
