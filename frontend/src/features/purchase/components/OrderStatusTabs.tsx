import { Flex, Select, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { useOrderSummary } from '../api/orders';
import { ORDER_STATUSES, type OrderStatus, type StatusSummaryEntry } from '../api/types';
import { useFormatters } from '@/shared/utils/format';
import { usePhone } from '@/shared/hooks/usePhone';
import styles from './purchase.module.css';

const ALL = 'all';

/** Status tabs with counts for the list's other filters, and the value of what is shown; on a phone
 * (below 576px) a select of the same statuses and counts with the value under it: the tabs did not fit,
 * and the overflow menu antd put into the tab list is no tab. */
export function OrderStatusTabs({
  list,
  extraParams = {},
  statuses = ORDER_STATUSES,
}: {
  list: UseListParams;
  extraParams?: Record<string, unknown>;
  /** The tabs to show (the supplier portal never sees drafts). */
  statuses?: readonly OrderStatus[];
}) {
  const { t } = useTranslation('purchase');
  const f = useFormatters();
  const { page: _page, page_size: _size, ordering: _ordering, status: _status, ...selection } = list.apiParams;
  const summary = useOrderSummary({ ...selection, ...extraParams });
  const phone = usePhone();
  const current = typeof list.filters.status === 'string' ? list.filters.status : ALL;

  const entry: StatusSummaryEntry | undefined =
    current === ALL ? summary.data?.total : summary.data?.statuses[current as OrderStatus];
  const value = entry
    ? Object.entries(entry.amounts)
        .map(([currency, amount]) => f.money(amount, currency))
        .join(' + ')
    : '';

  const label = (key: string, count: number | undefined) => (count === undefined ? t(`status.${key}`) : `${t(`status.${key}`)} (${count})`);

  const items = [
    { key: ALL, label: label(ALL, summary.data?.total.count) },
    ...statuses.map((status) => ({ key: status, label: label(status, summary.data?.statuses[status].count) })),
  ];
  const onChange = (key: string) => list.setFilter('status', key === ALL ? null : key);
  const total = value ? (
    <Typography.Text type="secondary" data-testid="orders-total-value">
      {t('list.totalValue')}: <Typography.Text strong>{value}</Typography.Text>
    </Typography.Text>
  ) : null;

  if (phone) {
    return (
      <Flex vertical gap="small" className={styles.tabs}>
        <Select
          aria-label={t('fields.status')}
          value={current}
          onChange={onChange}
          options={items.map((item) => ({ value: item.key, label: item.label }))}
          data-testid="orders-status-select"
        />
        {total}
      </Flex>
    );
  }
  return <Tabs className={styles.tabs} activeKey={current} onChange={onChange} items={items} tabBarExtraContent={total} />;
}
