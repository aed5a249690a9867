import { LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Empty, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { CARTONS_URL, cartonListQueryOptions, type CartonRow } from './cartonsApi';

export { CARTONS_URL, type CartonRow };
export const VIEW_CARTONS = 'eudr.view_cartonlabel';

/** Carton lists are for internal and supplier users holding eudr.view_cartonlabel (not warehouse users). */
export function useMayViewCartons(): boolean {
  return useSession((s) => {
    const user = s.userInfo;
    if (!user || userTypeOf(user) === 'warehouse') return false;
    return user.permissions === undefined || user.permissions.includes(VIEW_CARTONS);
  });
}

interface Props {
  /** Filters of the carton list, e.g. `{ purchase_order_line: 12 }` or `{ container: 'MSCU1234566' }`. */
  filter: Record<string, string | number>;
  /** Columns to leave out (e.g. the container in a shipment's own list). */
  hide?: readonly ('container' | 'purchase_order')[];
  pageSize?: number;
  'data-testid'?: string;
}

/**
 * The active carton labels matching `filter`, paged by the server: code (opening the public trace
 * page), batch and sequence, article, order and container. The server scopes them (a supplier sees
 * only the cartons of their own raw materials).
 */
export function CartonList({ filter, hide = [], pageSize: initialPageSize = 10, 'data-testid': testId }: Props) {
  const { t } = useTranslation('cartons');
  const tenant = useSession((s) => s.tenantId);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialPageSize);
  const query = useQuery(cartonListQueryOptions(tenant, filter, page, pageSize));
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;

  const columns = [
    {
      title: t('code'),
      dataIndex: 'code',
      key: 'code',
      render: (code: string, row: CartonRow) => (
        <Typography.Link href={row.qr_url} target="_blank" rel="noreferrer noopener" data-testid="carton-trace-link">
          <LinkOutlined /> {code}
        </Typography.Link>
      ),
    },
    {
      title: t('batch'),
      key: 'batch',
      render: (_: unknown, row: CartonRow) => `${row.production_batch_code} · ${row.batch_sequence}`,
    },
    {
      title: t('article'),
      key: 'article',
      render: (_: unknown, row: CartonRow) => (
        <>
          <Typography.Text strong>{row.article_number}</Typography.Text>
          {row.product_name ? <Typography.Text type="secondary"> {row.product_name}</Typography.Text> : null}
        </>
      ),
    },
    { title: t('purchase_order'), dataIndex: 'purchase_order', key: 'purchase_order', render: (v: string | null) => v || '—' },
    { title: t('container'), dataIndex: 'container', key: 'container', render: (v: string) => v || '—' },
    { title: t('net_weight'), dataIndex: 'net_weight_kg', key: 'net_weight', align: 'right' as const },
  ].filter((column) => !(hide as readonly string[]).includes(column.key));

  return (
    <div data-testid={testId}>
      <Table<CartonRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={query.data?.results ?? []}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} /> }}
        pagination={{
          current: page,
          pageSize,
          total: query.data?.count ?? 0,
          size: 'small',
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('total', { count: total }),
          onChange: (next, size) => {
            setPage(size === pageSize ? next : 1);
            setPageSize(size);
          },
        }}
      />
    </div>
  );
}
