import { Card, Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFormatters } from '@/shared/utils/format';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { INVOICES_URL, PAYMENT_STATUSES, type Invoice } from '../api/sales';
import { PaymentStatusTag } from '../components/StatusTags';
import { paths } from '@/shared/routing/paths';

/** /sales/invoices: invoices and credit notes with their payment status (open, partially paid, paid,
 * overdue), filtered by kind and payment status. */
export default function SalesInvoicesPage() {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const phone = usePhone();
  // On a phone (below 576px): the number with its customer, and the total with its payment status.
  const columns: ServerColumn<Invoice>[] = [
    {
      title: t('fields.number'),
      dataIndex: 'number',
      sorter: true,
      render: (v: string, inv) => (
        <>
          {v ? <Typography.Text strong>{v}</Typography.Text> : <Typography.Text type="secondary">{t('invoice.draftNumber')}</Typography.Text>}
          <PhoneLine>{inv.customer_name}</PhoneLine>
        </>
      ),
    },
    { title: t('fields.kind'), dataIndex: 'kind', hidden: phone, render: (v: string) => t(`kind.${v}`) },
    { title: t('fields.customer'), key: 'customer__name', sorter: true, hidden: phone, render: (_, inv) => inv.customer_name },
    { title: t('fields.order_number'), dataIndex: 'order_number', hidden: phone },
    { title: t('fields.issue_date'), dataIndex: 'issue_date', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    { title: t('fields.due_date'), dataIndex: 'due_date', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    {
      title: t('fields.total_gross'),
      dataIndex: 'total_gross',
      sorter: true,
      align: 'right',
      render: (v: string, inv) => (
        <>
          {f.money(v, inv.currency)}
          <PhoneLine secondary={false}>
            <PaymentStatusTag status={inv.payment_status} />
          </PhoneLine>
        </>
      ),
    },
    { title: t('fields.amount_paid'), dataIndex: 'amount_paid', align: 'right', hidden: phone, render: (v: string, inv) => f.money(v, inv.currency) },
    { title: t('fields.payment_status'), key: 'payment', hidden: phone, render: (_, inv) => <PaymentStatusTag status={inv.payment_status} /> },
  ];
  return (
    <PageContainer>
      <Card>
        <ServerTable<Invoice>
          endpoint={INVOICES_URL}
          rowKey="id"
          columns={columns}
          listOptions={{ defaultOrdering: '-created_at' }}
          searchPlaceholder={t('list.searchInvoices')}
          exportFileName="sales-invoices"
          onRowClick={(inv) => void navigate(paths.salesInvoice(inv.id))}
          filters={(params) => (
            <Flex gap="small" wrap>
              <Select
                allowClear
                style={{ minWidth: 160 }}
                aria-label={t('list.paymentFilter')}
                placeholder={t('list.paymentFilter')}
                value={typeof params.filters.payment_status === 'string' ? params.filters.payment_status : undefined}
                onChange={(value?: string) => params.setFilter('payment_status', value ?? null)}
                options={PAYMENT_STATUSES.map((value) => ({ value, label: t(`paymentStatus.${value}`) }))}
              />
              <Select
                allowClear
                style={{ minWidth: 140 }}
                aria-label={t('list.kindFilter')}
                placeholder={t('list.kindFilter')}
                value={typeof params.filters.kind === 'string' ? params.filters.kind : undefined}
                onChange={(value?: string) => params.setFilter('kind', value ?? null)}
                options={['invoice', 'credit_note'].map((value) => ({ value, label: t(`kind.${value}`) }))}
              />
            </Flex>
          )}
        />
      </Card>
    </PageContainer>
  );
}
