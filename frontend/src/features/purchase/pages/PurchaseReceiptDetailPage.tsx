import { Card, Descriptions, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DetailPage } from '@/shared/components/DetailPage';
import { useReceipt } from '../api/receipts';
import type { ReceiptDetail, ReceiptLine } from '../api/types';
import { useFormatters } from '@/shared/utils/format';
import styles from '../components/purchase.module.css';
import { paths } from '@/shared/routing/paths';

/** /purchase/receipts/{id}: what was received, where, and against which order lines. */
export default function PurchaseReceiptDetailPage() {
  const { t } = useTranslation('purchase');
  const { id } = useParams();
  const query = useReceipt(id);

  return (
    <DetailPage
      query={query}
      invalid={id === undefined || !/^\d+$/.test(id)}
      notFound={t('receipts.notFound')}
      backTo={paths.purchaseReceipts()}
      backLabel={t('receipts.backToList')}
      title={(receipt) => `${t('nav:routes.purchaseReceipt')} ${receipt.receipt_number}`}
    >
      {(receipt) => <ReceiptView receipt={receipt} />}
    </DetailPage>
  );
}

function ReceiptView({ receipt }: { receipt: ReceiptDetail }) {
  const { t } = useTranslation('purchase');
  const f = useFormatters();
  return (
    <>
      <Card className={styles.section}>
        <Descriptions
          column={{ xs: 1, sm: 2, lg: 3 }}
          size="small"
          items={[
            { key: 'date', label: t('receipts.receipt_date'), children: f.date(receipt.receipt_date) },
            {
              key: 'order',
              label: t('receipts.order'),
              children: <Link to={paths.purchaseOrder(receipt.purchase_order_number)}>{receipt.purchase_order_number}</Link>,
            },
            { key: 'supplier', label: t('fields.supplier'), children: `${receipt.supplier.number} · ${receipt.supplier.name}` },
            {
              key: 'warehouse',
              label: t('receipts.warehouse'),
              children: `${receipt.warehouse_detail.code} · ${receipt.warehouse_detail.name}`,
            },
            { key: 'by', label: t('receipts.created_by'), children: receipt.created_by_name || '—' },
            { key: 'qty', label: t('receipts.total_qty'), children: f.qty(receipt.total_qty) },
            {
              key: 'note',
              label: t('receipts.note'),
              span: 'filled',
              children: (
                <>
                  {receipt.over_receipt ? <Tag color="warning">{t('receipts.over_receipt')}</Tag> : null}
                  {receipt.note || '—'}
                </>
              ),
            },
          ]}
        />
      </Card>
      <Card>
        <Table<ReceiptLine>
          rowKey="id"
          dataSource={receipt.lines}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('line.line_number'), dataIndex: 'line_number', width: 64 },
            {
              title: t('line.product_number'),
              dataIndex: 'product_number',
              render: (value: string, line) => (
                <>
                  <Typography.Text strong>{value}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{line.line_description}</Typography.Text>
                </>
              ),
            },
            { title: t('receipts.quantity'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
            { title: t('receipts.location'), dataIndex: 'location' },
            { title: t('receipts.stockMove'), dataIndex: 'stock_move', render: (v: number | null) => (v ? `#${v}` : '—') },
          ]}
        />
      </Card>
    </>
  );
}
