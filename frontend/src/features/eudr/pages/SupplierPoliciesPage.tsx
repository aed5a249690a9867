import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { formatDate } from '@/shared/utils/format';
import { POLICIES_URL } from '../api/endpoints';
import { useParentVendors } from '../api/lookups';
import { useDeletePolicy } from '../api/policies';
import type { SupplierPolicy } from '../api/types';
import styles from '../components/eudr.module.css';
import { PolicyFormDialog } from '../components/PolicyFormDialog';
import { CAP_MODES, MATERIAL_TYPES } from '../lib/options';
import { formatKg } from '../lib/weight';

const FILTER_KEYS = ['parent_vendor', 'material_type', 'cap_mode', 'is_active'] as const;

/**
 * /purchase/eudr/supplier-policies: how each parent vendor's raw material turns into cartons. A
 * delivery copies the policy in force when it is submitted, so editing here never changes history.
 */
export default function SupplierPoliciesPage() {
  const { t, i18n } = useTranslation('eudr');
  const { message } = App.useApp();
  const vendors = useParentVendors();
  const remove = useDeletePolicy();
  const [editing, setEditing] = useState<SupplierPolicy | null>(null);
  const [open, setOpen] = useState(false);

  const vendorLabel = (row: SupplierPolicy) => {
    if (row.parent_vendor === null) return <Tag color="processing">{t('policy.allVendors')}</Tag>;
    const vendor = vendors.data?.find((v) => v.id === row.parent_vendor);
    return i18n.language === 'zh' && vendor?.cname ? vendor.cname : row.parent_vendor_name;
  };

  const phone = usePhone();
  const material = (v?: string) => (v ? t(`materialType.${v}`) : t('policy.allMaterials'));
  const percent = (v?: string) => t('units.percent', { value: Number(v ?? 0) });
  const cap = (row: SupplierPolicy) => (row.cap_mode === 'fixed' ? t('policy.fixedCap', { count: row.cap_value ?? 0 }) : t(`capMode.${row.cap_mode}`));
  const active = (v?: boolean) => (v ? <Tag color="success">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>);
  // On a phone (below 576px): the parent vendor with the material, the figures, the cap, the date and
  // whether it is active under it, and the actions.
  const columns: ServerColumn<SupplierPolicy>[] = [
    {
      title: t('fields.parent_vendor'),
      key: 'parent_vendor__name',
      sorter: true,
      render: (_: unknown, row) => (
        <>
          {vendorLabel(row)}
          <PhoneLine secondary={false}>{material(row.material_type)}</PhoneLine>
          <PhoneLine>
            {t('units.kg', { value: formatKg(row.min_consumption_per_carton, i18n.language) })} · {percent(row.loss_rate_percent)} ·{' '}
            {percent(row.order_tolerance_percent)}
          </PhoneLine>
          <PhoneLine>
            {cap(row)} · {formatDate(row.valid_from, i18n.language)}
          </PhoneLine>
          <PhoneLine secondary={false}>{active(row.is_active)}</PhoneLine>
        </>
      ),
    },
    {
      title: t('fields.material_type'),
      dataIndex: 'material_type',
      key: 'material_type',
      sorter: true,
      hidden: phone,
      render: material,
    },
    {
      title: t('fields.min_consumption_per_carton'),
      dataIndex: 'min_consumption_per_carton',
      align: 'right',
      hidden: phone,
      render: (v: string) => t('units.kg', { value: formatKg(v, i18n.language) }),
    },
    { title: t('fields.loss_rate_percent'), dataIndex: 'loss_rate_percent', align: 'right', hidden: phone, render: percent },
    { title: t('fields.order_tolerance_percent'), dataIndex: 'order_tolerance_percent', align: 'right', hidden: phone, render: percent },
    { title: t('fields.cap_mode'), dataIndex: 'cap_mode', hidden: phone, render: (_: string, row) => cap(row) },
    { title: t('fields.valid_from'), dataIndex: 'valid_from', key: 'valid_from', sorter: true, hidden: phone, render: (v: string) => formatDate(v, i18n.language) },
    { title: t('fields.is_active'), dataIndex: 'is_active', hidden: phone, render: active },
    {
      title: t('policy.actions'),
      key: 'actions',
      fixed: phone ? undefined : 'right',
      render: (_: unknown, row) => (
        <Space onClick={(event) => event.stopPropagation()}>
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={t('policy.edit')}
            onClick={() => {
              setEditing(row);
              setOpen(true);
            }}
          />
          <ConfirmDelete onConfirm={() => remove.mutateAsync(row.id)} />
        </Space>
      ),
    },
  ];

  const filters = (list: UseListParams) => (
    <>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('fields.parent_vendor')}
        aria-label={t('fields.parent_vendor')}
        value={typeof list.filters.parent_vendor === 'string' ? Number(list.filters.parent_vendor) : undefined}
        onChange={(value: number | undefined) => list.setFilter('parent_vendor', value === undefined ? null : String(value))}
        options={(vendors.data ?? []).map((v) => ({ value: v.id, label: i18n.language === 'zh' && v.cname ? v.cname : v.name }))}
        className={styles.filterWide}
      />
      <Select
        allowClear
        placeholder={t('fields.material_type')}
        aria-label={t('fields.material_type')}
        value={typeof list.filters.material_type === 'string' ? list.filters.material_type : undefined}
        onChange={(value: string | undefined) => list.setFilter('material_type', value)}
        options={MATERIAL_TYPES.map((v) => ({ value: v, label: t(`materialType.${v}`) }))}
        className={styles.filterNarrow}
      />
      <Select
        allowClear
        placeholder={t('fields.cap_mode')}
        aria-label={t('fields.cap_mode')}
        value={typeof list.filters.cap_mode === 'string' ? list.filters.cap_mode : undefined}
        onChange={(value: string | undefined) => list.setFilter('cap_mode', value)}
        options={CAP_MODES.map((v) => ({ value: v, label: t(`capMode.${v}`) }))}
        className={styles.filterWide}
      />
    </>
  );

  return (
    <>
      <ListPage<SupplierPolicy>
        endpoint={POLICIES_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ filterKeys: FILTER_KEYS }}
        filters={filters}
        exportFileName="supplier-policies"
        onRowClick={(row) => {
          setEditing(row);
          setOpen(true);
        }}
        actions={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing(null);
              setOpen(true);
            }}
            data-testid="new-policy"
          >
            {t('policy.new')}
          </Button>
        }
      />
      <PolicyFormDialog
        policy={editing}
        open={open}
        onClose={() => setOpen(false)}
        onSaved={() => {
          setOpen(false);
          void message.success(t('policy.saved'));
        }}
      />
    </>
  );
}
