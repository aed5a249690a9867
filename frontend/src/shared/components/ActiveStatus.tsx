import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UseListParams } from '@/shared/hooks/useListParams';
import type { ServerColumn } from './ServerTable';

/** "Active" or "Inactive" of a record with `is_active` (products, customers, suppliers, policies ...). */
export function ActiveStatusTag({ active }: { active: boolean | undefined }) {
  const { t } = useTranslation();
  // The server leaves a field out only where its default applies: a record is active unless it says not.
  return active === false ? <Tag>{t('status.inactive')}</Tag> : <Tag color="success">{t('status.active')}</Tag>;
}

/** The list column of `is_active`, sortable on the server unless `sortable: false`. */
export function activeStatusColumn<T extends { is_active?: boolean }>(
  title: string,
  { sortable = true }: { sortable?: boolean } = {},
): ServerColumn<T> {
  return {
    title,
    dataIndex: 'is_active',
    sorter: sortable,
    responsive: ['sm'],
    render: (active: boolean | undefined) => <ActiveStatusTag active={active} />,
  };
}

interface FilterProps {
  list: Pick<UseListParams, 'filters' | 'setFilter'>;
  /** The accessible name (the field's label in the feature's words). */
  label: string;
  className?: string;
}

/** The list filter on `?is_active=`: active and inactive (no filter), only active, only inactive. */
export function ActiveStatusFilter({ list, label, className }: FilterProps) {
  const { t } = useTranslation();
  const value = list.filters.is_active;
  return (
    <Select
      className={className}
      value={typeof value === 'string' ? value : ''}
      onChange={(next: string) => list.setFilter('is_active', next || null)}
      options={[
        { value: '', label: t('status.any') },
        { value: 'true', label: t('status.active') },
        { value: 'false', label: t('status.inactive') },
      ]}
      aria-label={label}
      data-testid="filter-is-active"
    />
  );
}
