import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/shared/components/ListPage';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { ImportDialog } from '@/shared/import/ImportDialog';
import { CUSTOMERS_URL, useInvalidateCustomers } from '../api/customers';
import type { Customer } from '../api/types';
import { countryName, countryOptions } from '../codes';
import { CustomerFormDrawer } from '../components/CustomerFormDrawer';
import styles from '../components/customers.module.css';
import { useMayPermission } from '@/shared/session/permissions';
import { CUSTOMER_PERMS } from '../permissions';
import { ActiveStatusFilter, activeStatusColumn } from '@/shared/components/ActiveStatus';

const FILTER_KEYS = ['country', 'is_active'] as const;

type Editing = { mode: 'create' } | { mode: 'edit'; customer: Customer } | null;

/** Customers: server list with filters in the URL, a drawer to create and edit, export and import. */
export default function CustomerListPage() {
  const { t, i18n } = useTranslation('customers');
  const mayAdd = useMayPermission(CUSTOMER_PERMS.add);
  const mayChange = useMayPermission(CUSTOMER_PERMS.change);
  const [editing, setEditing] = useState<Editing>(null);
  const [importing, setImporting] = useState(false);
  const invalidate = useInvalidateCustomers();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);

  const columns: ServerColumn<Customer>[] = [
    { title: t('fields.number'), dataIndex: 'number', sorter: true, render: (value: string) => <Typography.Text strong>{value}</Typography.Text> },
    {
      title: t('fields.name'),
      dataIndex: 'name',
      sorter: true,
      render: (_: unknown, customer) => (
        <>
          {customer.name}
          {customer.email ? (
            <Typography.Text type="secondary" className={styles.secondLine}>
              {customer.email}
            </Typography.Text>
          ) : null}
        </>
      ),
    },
    { title: t('fields.city'), dataIndex: 'billing_city', sorter: true, responsive: ['md'] },
    {
      title: t('fields.country'),
      dataIndex: 'billing_country',
      sorter: true,
      responsive: ['sm'],
      render: (code: string) => countryName(code, i18n.language) || '–',
    },
    {
      title: t('fields.mainContact'),
      key: 'contact',
      responsive: ['lg'],
      render: (_: unknown, customer) => customer.contacts?.[0]?.name ?? '–',
    },
    { title: t('fields.currency'), dataIndex: 'currency', sorter: true, responsive: ['md'] },
    {
      title: t('fields.payment_terms_days'),
      dataIndex: 'payment_terms_days',
      sorter: true,
      align: 'right',
      responsive: ['lg'],
      render: (days: number) => <span className={styles.number}>{t('list.days', { count: days })}</span>,
    },
    activeStatusColumn<Customer>(t('fields.is_active')),
  ];

  return (
    <>
      <ListPage<Customer>
        endpoint={CUSTOMERS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ filterKeys: FILTER_KEYS }}
        searchPlaceholder={t('list.searchPlaceholder')}
        onRowClick={(customer) => setEditing({ mode: 'edit', customer })}
        exportFileName="customers"
        filters={(list) => (
          <>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              className={styles.filter}
              placeholder={t('list.allCountries')}
              value={typeof list.filters.country === 'string' ? list.filters.country : undefined}
              onChange={(value: string | undefined) => list.setFilter('country', value ?? null)}
              options={countries}
              aria-label={t('fields.country')}
            />
            <ActiveStatusFilter list={list} label={t('fields.is_active')} className={styles.filter} />
          </>
        )}
        actions={
          <>
            {mayAdd && mayChange ? (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="customer-import">
                {t('actions.import')}
              </Button>
            ) : null}
            {mayAdd ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'create' })} data-testid="customer-new">
                {t('actions.new')}
              </Button>
            ) : null}
          </>
        }
      />
      {editing ? (
        <CustomerFormDrawer customer={editing.mode === 'edit' ? editing.customer : undefined} onClose={() => setEditing(null)} />
      ) : null}
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoint={CUSTOMERS_URL}
        kind="customers.customer"
        resourceLabel={t('resource')}
        fileStem="customers"
        onImported={() => void invalidate()}
      />
    </>
  );
}
