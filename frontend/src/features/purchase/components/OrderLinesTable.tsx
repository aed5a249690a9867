import { Progress, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from '@/shared/utils/dayjs';
import { useTranslation } from 'react-i18next';
import { CartonList } from '@/shared/cartons/CartonList';
import { compareQty } from '../lib/decimal';
import { useFormatters } from '@/shared/utils/format';
import { isReceivable, type PurchaseOrderDetail, type PurchaseOrderLine } from '../api/types';
import { useSeesPrices } from '@/shared/session/prices';
import styles from './purchase.module.css';

interface Props {
  order: PurchaseOrderDetail;
  /** Show the carton labels issued per line (the supplier portal and EUDR follow-up). */
  showCartons?: boolean;
  /** Lines with issued cartons expand into the list of those cartons (users who may view labels). */
  expandCartons?: boolean;
  compact?: boolean;
}

/**
 * The lines of an order, read-only, with received progress, each line's delivery date (its own, else the
 * order's promise date, muted) and the order total. A line still expecting goods after its delivery day
 * is marked late (docs/purchasing.md, "Lines").
 */
export function OrderLinesTable({ order, showCartons = true, expandCartons = false, compact = false }: Props) {
  const { t, i18n } = useTranslation('purchase');
  const f = useFormatters();
  const seesPrices = useSeesPrices();
  const productName = (line: PurchaseOrderLine) =>
    i18n.language === 'zh' && line.product_name_zh ? line.product_name_zh : line.product_name;
  const today = dayjs().format('YYYY-MM-DD');

  const columns: ColumnsType<PurchaseOrderLine> = [
    { title: t('line.line_number'), dataIndex: 'line_number', width: 64 },
    {
      title: t('line.product_number'),
      dataIndex: 'product_number',
      // a long description wraps, so the line's figures and dates fit beside it on a desktop screen
      render: (value: string, line) => (
        <div className={styles.productCell}>
          <Typography.Text strong>{value}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{line.line_description || productName(line)}</Typography.Text>
        </div>
      ),
    },
    { title: t('line.order_qty'), dataIndex: 'order_qty', align: 'right', render: (v: string) => f.qty(v) },
    ...(seesPrices
      ? ([
          { title: t('line.unit_cost'), dataIndex: 'unit_cost', align: 'right', render: (v: string) => f.unitCost(v) },
          { title: t('line.amount'), dataIndex: 'amount', align: 'right', render: (v: string) => f.money(v, order.currency) },
        ] satisfies ColumnsType<PurchaseOrderLine>)
      : []),
    {
      title: t('line.weight_per_carton'),
      dataIndex: 'weight_per_carton',
      align: 'right',
      render: (v: string | null) => (v === null ? '—' : f.qty(v)),
    },
    {
      title: t('line.received_qty'),
      dataIndex: 'received_qty',
      align: 'right',
      render: (v: string, line) => {
        const ratio = Number(line.order_qty) > 0 ? Math.min(100, Math.round((Number(v) / Number(line.order_qty)) * 100)) : 0;
        return (
          <div>
            {f.qty(v)}
            {compact ? null : (
              <Progress
                percent={ratio}
                size="small"
                aria-label={t('line.received_qty')}
                showInfo={false}
                status={compareQty(v, line.order_qty) > 0 ? 'exception' : ratio === 100 ? 'success' : 'normal'}
              />
            )}
          </div>
        );
      },
    },
    { title: t('line.open_qty'), dataIndex: 'open_qty', align: 'right', render: (v: string) => f.qty(v) },
    {
      title: t('line.delivery_date'),
      dataIndex: 'delivery_date',
      render: (value: string | null, line) => {
        const due = value ?? order.promise_date;
        if (!due) return '—';
        const late = isReceivable(order.status) && compareQty(line.open_qty, '0') > 0 && due < today;
        return (
          <span className={styles.nowrap} data-testid={`line-delivery-${line.line_number}`}>
            {value ? (
              f.date(value)
            ) : (
              <Typography.Text type="secondary" title={t('line.deliveryFromOrder')}>
                {f.date(due)}
              </Typography.Text>
            )}
            {late ? (
              <Tag color="error" className={styles.lateTag}>
                {t('line.late')}
              </Tag>
            ) : null}
          </span>
        );
      },
    },
  ];
  // the expand column comes first when lines expand into their cartons
  const offset = expandCartons ? 1 : 0;
  if (showCartons) {
    columns.push({ title: t('line.cartons_issued'), dataIndex: 'cartons_issued', align: 'right' });
  }

  return (
    <Table<PurchaseOrderLine>
      rowKey="id"
      size={compact ? 'small' : 'middle'}
      columns={columns}
      dataSource={order.lines}
      pagination={false}
      scroll={{ x: 'max-content' }}
      expandable={
        expandCartons
          ? {
              rowExpandable: (line) => line.cartons_issued > 0,
              expandedRowRender: (line) => (
                <CartonList filter={{ purchase_order_line: line.id }} hide={['purchase_order']} data-testid={`line-cartons-${line.line_number}`} />
              ),
            }
          : undefined
      }
      data-testid="order-lines"
      summary={seesPrices ? () => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={4 + offset}>
            <Typography.Text strong>{t('detail.totals')}</Typography.Text>
          </Table.Summary.Cell>
          <Table.Summary.Cell index={4 + offset} align="right">
            <Typography.Text strong>{f.money(order.total_amount, order.currency)}</Typography.Text>
          </Table.Summary.Cell>
          <Table.Summary.Cell index={5 + offset} colSpan={showCartons ? 5 : 4} />
        </Table.Summary.Row>
      ) : undefined}
    />
  );
}
