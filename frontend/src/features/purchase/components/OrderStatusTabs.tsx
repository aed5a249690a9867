import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { useOrderSummary } from '../api/orders';
import { ORDER_STATUSES, type OrderStatus, type StatusSummaryEntry } from '../api/types';
import { useFormatters } from '@/shared/utils/format';
import styles from './purchase.module.css';

const ALL = 'all';

/** Status tabs with counts for the list's other filters, and the value of what is shown. */
export function OrderStatusTabs({ list, extraParams = {} }: { list: UseListParams; extraParams?: Record<string, unknown> }) {
  const { t } = useTranslation('purchase');
  const f = useFormatters();
  const { page: _page, page_size: _size, ordering: _ordering, status: _status, ...selection } = list.apiParams;
  const summary = useOrderSummary({ ...selection, ...extraParams });
  const current = typeof list.filters.status === 'string' ? list.filters.status : ALL;

  const entry: StatusSummaryEntry | undefined =
    current === ALL ? summary.data?.total : summary.data?.statuses[current as OrderStatus];
  const value = entry
    ? Object.entries(entry.amounts)
        .map(([currency, amount]) => f.money(amount, currency))
        .join(' + ')
    : '';

  const label = (key: string, count: number | undefined) => (count === undefined ? t(`status.${key}`) : `${t(`status.${key}`)} (${count})`);

  return (
    <Tabs
      className={styles.tabs}
      activeKey={current}
      onChange={(key) => list.setFilter('status', key === ALL ? null : key)}
      items={[
        { key: ALL, label: label(ALL, summary.data?.total.count) },
        ...ORDER_STATUSES.map((status) => ({ key: status, label: label(status, summary.data?.statuses[status].count) })),
      ]}
      tabBarExtraContent={
        value ? (
          <Typography.Text type="secondary" data-testid="orders-total-value">
            {t('list.totalValue')}: <Typography.Text strong>{value}</Typography.Text>
          </Typography.Text>
        ) : null
      }
    />
  );
}
