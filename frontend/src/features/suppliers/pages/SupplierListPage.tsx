import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { ImportDialog } from '@/shared/import/ImportDialog';
import { SUPPLIERS_URL, useInvalidateSuppliers, useParentVendorOptions } from '../api/suppliers';
import type { Supplier } from '../api/types';
import { SupplierCreateModal } from '../components/SupplierCreateModal';
import { countryName, countryOptions } from '@/shared/countries/countries';
import { useHasPermission } from '@/shared/session/permissions';
import styles from './pages.module.css';
import { ActiveStatusFilter, activeStatusColumn } from '@/shared/components/ActiveStatus';
import { paths } from '@/shared/routing/paths';

/** Suppliers: server paging, sorting, search and filters in the URL; export, import, create. */
export default function SupplierListPage() {
  const { t, i18n } = useTranslation('suppliers');
  const navigate = useNavigate();
  const canAdd = useHasPermission('suppliers.add_supplier');
  const canChange = useHasPermission('suppliers.change_supplier');
  const vendors = useParentVendorOptions();
  const invalidate = useInvalidateSuppliers();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const vendorLabel = (v: { name: string; cname?: string }) => (i18n.language === 'zh' && v.cname ? v.cname : v.name);

  const phone = usePhone();
  // On a phone (below 576px): the number with the name, parent vendor and country under it, and the status.
  const columns: ServerColumn<Supplier>[] = [
    {
      title: t('fields.number'),
      dataIndex: 'number',
      sorter: true,
      width: phone ? undefined : 120,
      render: (value: string, row) => (
        <>
          {value}
          <PhoneLine secondary={false}>{row.name}</PhoneLine>
          <PhoneLine>{vendorLabel(row.parent_vendor_detail)}</PhoneLine>
          {row.country ? <PhoneLine>{countryName(row.country, i18n.language)}</PhoneLine> : null}
        </>
      ),
    },
    { title: t('fields.name'), dataIndex: 'name', sorter: true, hidden: phone },
    {
      title: t('fields.parentVendor'),
      key: 'parent_vendor__name',
      sorter: true,
      hidden: phone,
      render: (_v, row) => vendorLabel(row.parent_vendor_detail),
    },
    { title: t('fields.country'), dataIndex: 'country', sorter: true, hidden: phone, render: (code: string) => (code ? `${countryName(code, i18n.language)}` : '') },
    { title: t('fields.vismaCode'), dataIndex: 'visma_code', sorter: true, responsive: ['md'] },
    { title: t('fields.currency'), dataIndex: 'currency', sorter: true, responsive: ['md'] },
    { title: t('fields.email'), dataIndex: 'email', responsive: ['lg'] },
    {
      ...activeStatusColumn<Supplier>(t('fields.isActive'), { sortable: false }),
      // The status stays on a phone.
      responsive: phone ? undefined : ['sm'],
    },
  ];

  return (
    <>
      <ListPage<Supplier>
        endpoint={SUPPLIERS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: 'number', filterKeys: ['parent_vendor', 'country', 'is_active', 'currency'] }}
        searchPlaceholder={t('list.searchPlaceholder')}
        exportFileName="suppliers"
        onRowClick={(row) => void navigate(paths.supplier(row.id))}
        filters={(list) => (
          <>
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('fields.parentVendor')}
              aria-label={t('fields.parentVendor')}
              value={list.filters.parent_vendor ? Number(list.filters.parent_vendor) : undefined}
              onChange={(value?: number) => list.setFilter('parent_vendor', value === undefined ? null : String(value))}
              options={(vendors.data ?? []).map((v) => ({ value: v.id, label: vendorLabel(v) }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('fields.country')}
              aria-label={t('fields.country')}
              value={(list.filters.country as string | undefined) ?? undefined}
              onChange={(value?: string) => list.setFilter('country', value ?? null)}
              options={countries}
              showSearch={{ optionFilterProp: 'label' }}
            />
            <ActiveStatusFilter list={list} label={t('fields.isActive')} className={styles.filterSmall} />
          </>
        )}
        actions={
          <>
            {canAdd && canChange ? (
              <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
                {t('list.import')}
              </Button>
            ) : null}
            {canAdd ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                {t('list.new')}
              </Button>
            ) : null}
          </>
        }
      />
      <SupplierCreateModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(supplier) => {
          setCreating(false);
          void invalidate();
          void navigate(paths.supplier(supplier.id));
        }}
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoint={SUPPLIERS_URL}
        kind="suppliers.supplier"
        resourceLabel={t('list.resource')}
        fileStem="suppliers"
        onImported={() => void invalidate()}
      />
    </>
  );
}
