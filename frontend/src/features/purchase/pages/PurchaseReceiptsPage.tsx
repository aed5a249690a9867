import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { RECEIPTS_URL, orderPath, receiptPath } from '../api/endpoints';
import type { Receipt } from '../api/types';
import { useFormatters } from '../lib/format';

/** /purchase/receipts: every goods receipt, newest first. */
export default function PurchaseReceiptsPage() {
  const { t } = useTranslation('purchase');
  const navigate = useNavigate();
  const f = useFormatters();
  const columns: ServerColumn<Receipt>[] = [
    {
      title: t('receipts.receipt_number'),
      dataIndex: 'receipt_number',
      sorter: true,
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    { title: t('receipts.receipt_date'), dataIndex: 'receipt_date', sorter: true },
    {
      title: t('receipts.order'),
      key: 'purchase_order__order_number',
      sorter: true,
      render: (_, r) => (
        <Link to={orderPath(r.purchase_order_number)} onClick={(event) => event.stopPropagation()}>
          {r.purchase_order_number}
        </Link>
      ),
    },
    { title: t('fields.supplier'), key: 'supplier', render: (_, r) => `${r.supplier.number} · ${r.supplier.name}` },
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
  ];
  return (
    <ListPage<Receipt>
      endpoint={RECEIPTS_URL}
      rowKey="id"
      columns={columns}
      listOptions={{ defaultOrdering: '-receipt_date' }}
      searchPlaceholder={t('receipts.searchPlaceholder')}
      exportFileName="purchase-receipts"
      onRowClick={(receipt) => void navigate(receiptPath(receipt.id))}
    />
  );
}
