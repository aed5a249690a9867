import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { ImportDialog } from '@/shared/import/ImportDialog';
import { PARENT_VENDORS_URL, useInvalidateSuppliers } from '../api/suppliers';
import type { ParentVendor } from '../api/types';
import { ParentVendorModal } from '../components/ParentVendorModal';
import { countryName } from '@/shared/countries/countries';
import { useHasPermission } from '@/shared/session/permissions';
import styles from './pages.module.css';
import { ActiveStatusFilter, activeStatusColumn } from '@/shared/components/ActiveStatus';

/** Parent vendors (groups of carton factories): list, create and edit in a modal, import, export. */
export default function ParentVendorsPage() {
  const { t, i18n } = useTranslation('suppliers');
  const { message } = App.useApp();
  const canAdd = useHasPermission('suppliers.add_parentvendor');
  const canChange = useHasPermission('suppliers.change_parentvendor');
  const canDelete = useHasPermission('suppliers.delete_parentvendor');
  const invalidate = useInvalidateSuppliers();
  const [editing, setEditing] = useState<ParentVendor | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);

  const phone = usePhone();
  // On a phone (below 576px): the code with the names under it, and the number of suppliers.
  const columns: ServerColumn<ParentVendor>[] = [
    {
      title: t('fields.code'),
      dataIndex: 'code',
      sorter: true,
      width: phone ? undefined : 110,
      render: (code: string, row) => (
        <>
          {code}
          <PhoneLine secondary={false}>{row.name}</PhoneLine>
          {row.cname ? <PhoneLine>{row.cname}</PhoneLine> : null}
        </>
      ),
    },
    { title: t('fields.name'), dataIndex: 'name', sorter: true, hidden: phone },
    { title: t('fields.cname'), dataIndex: 'cname', sorter: true, hidden: phone },
    { title: t('fields.contact'), dataIndex: 'contact', responsive: ['md'] },
    { title: t('fields.country'), dataIndex: 'country', sorter: true, render: (code: string) => countryName(code, i18n.language), responsive: ['md'] },
    { title: t('vendors.suppliers'), dataIndex: 'supplier_count', sorter: true, align: 'right' },
    activeStatusColumn<ParentVendor>(t('fields.isActive'), { sortable: false }),
  ];

  return (
    <>
      <ListPage<ParentVendor>
        endpoint={PARENT_VENDORS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: 'name', filterKeys: ['is_active', 'country'] }}
        searchPlaceholder={t('vendors.searchPlaceholder')}
        exportFileName="parent-vendors"
        onRowClick={(row) => setEditing(row)}
        filters={(list) => (
          <ActiveStatusFilter list={list} label={t('fields.isActive')} className={styles.filterSmall} />
        )}
        actions={
          <>
            {canAdd && canChange ? (
              <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
                {t('list.import')}
              </Button>
            ) : null}
            {canAdd ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
                {t('vendors.new')}
              </Button>
            ) : null}
          </>
        }
      />
      <ParentVendorModal
        vendor={editing}
        readOnly={editing ? !canChange : !canAdd}
        canDelete={canDelete}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          void invalidate();
          void message.success(t('detail.saved'));
        }}
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoint={PARENT_VENDORS_URL}
        kind="suppliers.parentvendor"
        resourceLabel={t('vendors.resource')}
        fileStem="parent-vendors"
        onImported={() => void invalidate()}
      />
    </>
  );
}
