import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Select, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import type { ServerColumn } from '@/shared/components/ServerTable';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { usePhone } from '@/shared/hooks/usePhone';
import { useErrorText } from '@/shared/errors/errorText';
import { useMayPermission } from '@/shared/session/permissions';
import { useFormatters } from '@/shared/utils/format';
import { SUPPLIER_INVOICES_URL } from '../api/endpoints';
import { paths } from '@/shared/routing/paths';
import { useUploadSupplierInvoice } from '../api/supplierInvoices';
import { MATCH_STATUSES, SUPPLIER_INVOICE_STATUSES, type SupplierInvoice } from '../api/types';
import { MatchStatusTag, SupplierInvoiceStatusTag } from '../components/MatchStatusTag';
import { SUPPLIER_INVOICE_PERMS } from '../permissions';
import styles from '../components/purchase.module.css';

/** The filters of this list, bound to the URL (and sent as they are to the endpoint). */
const FILTER_KEYS = ['status', 'match_status', 'supplier', 'purchase_order'] as const;
const ACCEPT = '.xml,.pdf,application/xml,text/xml,application/pdf';

function Filters({ list }: { list: UseListParams }) {
  const { t } = useTranslation('purchase');
  const value = (key: string) => (typeof list.filters[key] === 'string' ? list.filters[key] : undefined);
  return (
    <>
      <Select<string>
        allowClear
        placeholder={t('supplierInvoices.fields.status')}
        aria-label={t('supplierInvoices.fields.status')}
        value={value('status')}
        onChange={(next?: string) => list.setFilter('status', next ?? null)}
        options={SUPPLIER_INVOICE_STATUSES.map((s) => ({ value: s, label: t(`supplierInvoices.status.${s}`) }))}
        className={styles.filter}
        data-testid="supplier-invoices-status-filter"
      />
      <Select<string>
        allowClear
        placeholder={t('supplierInvoices.fields.match')}
        aria-label={t('supplierInvoices.fields.match')}
        value={value('match_status')}
        onChange={(next?: string) => list.setFilter('match_status', next ?? null)}
        options={MATCH_STATUSES.map((s) => ({ value: s, label: t(`supplierInvoices.match.${s}`) }))}
        className={styles.filter}
        data-testid="supplier-invoices-match-filter"
      />
    </>
  );
}

/** The Upload button: sends the chosen e-invoice, opens the draft read from it, or says in words why not. */
function UploadButton() {
  const { t } = useTranslation('purchase');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const upload = useUploadSupplierInvoice();
  return (
    <Upload
      accept={ACCEPT}
      showUploadList={false}
      beforeUpload={(file) => {
        upload.mutate(file, {
          onSuccess: (invoice) => {
            void message.success(t('supplierInvoices.uploaded', { number: invoice.invoice_number }));
            void navigate(paths.supplierInvoice(invoice.id));
          },
          onError: (error) => void message.error(errorText(error)),
        });
        return false;
      }}
    >
      <Button type="primary" icon={<UploadOutlined />} loading={upload.isPending} data-testid="supplier-invoices-upload">
        {t('supplierInvoices.upload')}
      </Button>
    </Upload>
  );
}

/** /purchase/supplier-invoices: the e-invoices suppliers sent, with their 3-way match. */
export default function SupplierInvoicesPage() {
  const { t } = useTranslation('purchase');
  const navigate = useNavigate();
  const f = useFormatters();
  const phone = usePhone();
  const mayUpload = useMayPermission(SUPPLIER_INVOICE_PERMS.add);
  const columns: ServerColumn<SupplierInvoice>[] = [
    {
      title: t('supplierInvoices.fields.invoice_number'),
      dataIndex: 'invoice_number',
      sorter: true,
      render: (value: string, row) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          {row.kind === 'credit_note' ? (
            <Typography.Text type="secondary"> · {t('supplierInvoices.kind.credit_note')}</Typography.Text>
          ) : null}
          <PhoneLine>{row.supplier?.name ?? row.seller_name}</PhoneLine>
        </>
      ),
    },
    { title: t('supplierInvoices.fields.issue_date'), dataIndex: 'issue_date', sorter: true, render: (v: string) => f.date(v) },
    {
      title: t('fields.supplier'),
      key: 'supplier',
      hidden: phone,
      render: (_, row) => row.supplier?.name ?? <Typography.Text type="secondary">{row.seller_name}</Typography.Text>,
    },
    {
      title: t('supplierInvoices.fields.purchase_order'),
      key: 'purchase_order',
      hidden: phone,
      render: (_, row) =>
        row.purchase_order ? (
          <Link to={paths.purchaseOrder(row.purchase_order.order_number)} onClick={(event) => event.stopPropagation()}>
            {row.purchase_order.order_number}
          </Link>
        ) : (
          '—'
        ),
    },
    {
      title: t('supplierInvoices.fields.total_gross'),
      dataIndex: 'total_gross',
      sorter: true,
      align: 'right',
      render: (value: string | undefined, row) => (value === undefined ? '—' : f.money(value, row.currency)),
    },
    { title: t('supplierInvoices.fields.due_date'), dataIndex: 'due_date', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    {
      title: t('supplierInvoices.fields.match'),
      dataIndex: 'match_status',
      sorter: true,
      render: (_, row) => <MatchStatusTag status={row.match_status} />,
    },
    {
      title: t('supplierInvoices.fields.status'),
      dataIndex: 'status',
      sorter: true,
      render: (_, row) => <SupplierInvoiceStatusTag status={row.status} />,
    },
  ];
  return (
    <ListPage<SupplierInvoice>
      endpoint={SUPPLIER_INVOICES_URL}
      rowKey="id"
      columns={columns}
      listOptions={{ defaultOrdering: '-issue_date', filterKeys: FILTER_KEYS }}
      searchPlaceholder={t('supplierInvoices.searchPlaceholder')}
      exportFileName="supplier-invoices"
      onRowClick={(invoice) => void navigate(paths.supplierInvoice(invoice.id))}
      filters={(list) => <Filters list={list} />}
      actions={mayUpload ? <UploadButton /> : null}
    />
  );
}
