import { Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { useOrderReceipts } from '../api/orders';
import type { Receipt } from '../api/types';
import { useFormatters } from '@/shared/utils/format';
import { paths } from '@/shared/routing/paths';

/** The receipts posted against one order; `linkReceipts` links their numbers to the receipt pages. */
export function OrderReceipts({ orderId, linkReceipts = true }: { orderId: number; linkReceipts?: boolean }) {
  const { t } = useTranslation('purchase');
  const f = useFormatters();
  const receipts = useOrderReceipts(orderId);
  if (receipts.isError) return <ErrorState error={receipts.error} onRetry={() => void receipts.refetch()} />;
  return (
    <Table<Receipt>
      rowKey="id"
      size="small"
      loading={receipts.isLoading}
      dataSource={receipts.data?.results ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('detail.noReceipts')} /> }}
      data-testid="order-receipts"
      columns={[
        {
          title: t('receipts.receipt_number'),
          dataIndex: 'receipt_number',
          render: (value: string, receipt) => (linkReceipts ? <Link to={paths.purchaseReceipt(receipt.id)}>{value}</Link> : value),
        },
        { title: t('receipts.receipt_date'), dataIndex: 'receipt_date', render: (v: string) => f.date(v) },
        { title: t('receipts.warehouse'), key: 'warehouse', render: (_, r) => r.warehouse_detail.code },
        { title: t('receipts.lines'), dataIndex: 'lines_count', align: 'right' },
        { title: t('receipts.total_qty'), dataIndex: 'total_qty', align: 'right', render: (v: string) => f.qty(v) },
        { title: t('receipts.created_by'), dataIndex: 'created_by_name' },
        {
          title: t('receipts.note'),
          dataIndex: 'note',
          render: (value: string, r) => (
            <>
              {r.over_receipt ? <Tag color="warning">{t('receipts.over_receipt')}</Tag> : null}
              {value}
            </>
          ),
        },
      ]}
    />
  );
}
