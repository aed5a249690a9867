import { Button, Card, Descriptions, Result, Skeleton, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useReceipt } from '../api/receipts';
import type { ReceiptLine } from '../api/types';
import { useFormatters } from '@/shared/utils/format';
import styles from '../components/purchase.module.css';
import { paths } from '@/shared/routing/paths';

/** /purchase/receipts/{id}: what was received, where, and against which order lines. */
export default function PurchaseReceiptDetailPage() {
  const { t } = useTranslation('purchase');
  const { id } = useParams();
  const navigate = useNavigate();
  const f = useFormatters();
  const query = useReceipt(id);

  if (query.isLoading) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError || !query.data) {
    if (!query.data && (!query.isError || (isApiError(query.error) && query.error.status === 404))) {
      return (
        <Result
          status="404"
          title={t('receipts.notFound')}
          extra={<Button onClick={() => void navigate(paths.purchaseReceipts())}>{t('receipts.backToList')}</Button>}
        />
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const receipt = query.data;
  return (
    <PageContainer title={`${t('nav:routes.purchaseReceipt')} ${receipt.receipt_number}`}>
      <Card className={styles.section}>
        <Descriptions
          column={{ xs: 1, sm: 2, lg: 3 }}
          size="small"
          items={[
            { key: 'date', label: t('receipts.receipt_date'), children: receipt.receipt_date },
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
    </PageContainer>
  );
}
