import { FilePdfOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Descriptions, Flex, Input, InputNumber, Modal, Popconfirm, Result, Select, Skeleton, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { useMayPermission } from '../hooks/usePermission';
import { useFormatters } from '@/shared/utils/format';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import {
  invoicePath,
  invoicePdfUrl,
  openPdf,
  orderPath,
  useCreditNote,
  useDeleteInvoice,
  useInvoice,
  usePostInvoice,
  useRecordPayment,
  useUpdateInvoice,
  type InvoiceDetail,
} from '../api/sales';
import { PaymentStatusTag } from '../components/StatusTags';
import { InvoiceAccountingState } from '@/shared/accounting/InvoiceAccountingState';

/** /sales/invoices/{id}: an invoice or credit note; a draft can be posted (numbered) or deleted, a posted
 * one credited or paid; the PDF opens in a new tab. */
export default function SalesInvoiceDetailPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const navigate = useNavigate();
  const f = useFormatters();
  const errorText = useErrorText();
  const query = useInvoice(Number(id));
  const post = usePostInvoice();
  const remove = useDeleteInvoice();
  const update = useUpdateInvoice();
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const mayChange = useMayPermission('salesorders.change_invoice');
  const mayAdd = useMayPermission('salesorders.add_invoice');
  const mayDelete = useMayPermission('salesorders.delete_invoice');

  if (query.isLoading) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return <Result status="404" title={t('invoice.notFound')} extra={<Button onClick={() => void navigate('/sales/invoices')}>{t('detail.backToList')}</Button>} />;
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const inv = query.data;
  if (!inv) return null;
  const onError = (err: unknown) => setError(errorText(err));
  const draft = inv.status === 'draft';
  const isInvoice = inv.kind === 'invoice';

  return (
    <PageContainer
      title={
        <Flex gap="small" align="center">
          {t(`kind.${inv.kind}`)} {inv.number || t('invoice.draftNumber')} <PaymentStatusTag status={inv.payment_status} />
        </Flex>
      }
      extra={
        <>
          <Button icon={<FilePdfOutlined />} onClick={() => void openPdf(invoicePdfUrl(inv.id)).catch(onError)} data-testid="invoice-pdf">
            {t('invoice.pdf')}
          </Button>
          {draft && mayChange ? (
            <Popconfirm title={t('invoice.confirmPost')} onConfirm={() => post.mutate(inv.id, { onError })}>
              <Button type="primary" loading={post.isPending} data-testid="post-invoice">
                {t('invoice.post')}
              </Button>
            </Popconfirm>
          ) : null}
          {draft && mayDelete ? (
            <Popconfirm title={t('invoice.confirmDelete')} onConfirm={() => remove.mutate(inv.id, { onSuccess: () => void navigate('/sales/invoices'), onError })}>
              <Button danger>{t('invoice.delete')}</Button>
            </Popconfirm>
          ) : null}
          {!draft && isInvoice && mayAdd ? (
            <Button onClick={() => setCrediting(true)} data-testid="credit-note">
              {t('invoice.creditNote')}
            </Button>
          ) : null}
          {!draft && isInvoice && mayChange && inv.payment_status !== 'paid' ? (
            <Button onClick={() => setPaying(true)} data-testid="record-payment">
              {t('invoice.payment')}
            </Button>
          ) : null}
        </>
      }
    >
      {error ? <Alert type="error" showIcon title={error} closable={{ onClose: () => setError(null) }} style={{ marginBottom: 12 }} /> : null}
      <Card style={{ marginBottom: 16 }}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('fields.order_number')}>
            <Button type="link" size="small" onClick={() => void navigate(orderPath(inv.sales_order))}>
              {inv.order_number}
            </Button>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.customer')}>{inv.customer_name}</Descriptions.Item>
          <Descriptions.Item label={t('fields.issue_date')}>{inv.issue_date ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.due_date')}>{inv.due_date ?? '—'}</Descriptions.Item>
          {inv.credited_invoice ? (
            <Descriptions.Item label={t('invoice.corrects')}>
              <Button type="link" size="small" onClick={() => void navigate(invoicePath(inv.credited_invoice as number))}>
                {inv.credited_invoice_number}
              </Button>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('invoice.seller')}>
            {[inv.seller_name, inv.seller_address, inv.seller_vat_number].filter(Boolean).join(' · ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.buyer')}>
            {[inv.buyer_name, inv.buyer_address, inv.buyer_vat_number].filter(Boolean).join(' · ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.language')}>
            {draft ? (
              <Select
                size="small"
                aria-label={t('invoice.language')}
                value={inv.language}
                onChange={(language: 'en' | 'zh') => update.mutate({ id: inv.id, language }, { onError })}
                options={[
                  { value: 'en', label: 'English' },
                  { value: 'zh', label: '中文' },
                ]}
              />
            ) : inv.language === 'zh' ? (
              '中文'
            ) : (
              'English'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.reverseCharge')}>
            <Switch
              size="small"
              aria-label={t('invoice.reverseCharge')}
              checked={inv.reverse_charge}
              disabled={!draft}
              onChange={(reverse_charge) => update.mutate({ id: inv.id, reverse_charge }, { onError })}
            />
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.amount_paid')}>{f.money(inv.amount_paid, inv.currency)}</Descriptions.Item>
          {inv.accounting ? (
            <Descriptions.Item label={t('accounting:invoice.label')}>
              <InvoiceAccountingState state={inv.accounting} />
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      </Card>
      <Card>
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: 800 }}
          dataSource={inv.lines}
          columns={[
            { title: t('fields.product'), key: 'p', render: (_, l) => `${l.product_number} ${l.description || l.product_name}` },
            { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
            { title: t('fields.unit_price'), dataIndex: 'unit_price', align: 'right', render: (v: string) => f.unitCost(v) },
            { title: t('fields.discount_percent'), dataIndex: 'discount_percent', align: 'right' },
            { title: t('fields.vat_rate'), dataIndex: 'vat_rate', align: 'right' },
            { title: t('fields.amount_net'), dataIndex: 'amount_net', align: 'right', render: (v: string) => f.money(v, inv.currency) },
          ]}
        />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('invoice.vatBreakdown')}
        </Typography.Title>
        <Descriptions size="small" column={1}>
          {inv.vat_breakdown.map((row) => (
            <Descriptions.Item key={row.vat_rate} label={`${row.vat_rate} %`}>
              {t('invoice.taxable')} {f.money(row.taxable, inv.currency)} · {t('fields.total_vat')} {f.money(row.vat, inv.currency)}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('fields.total_gross')}>
            <Typography.Text strong data-testid="invoice-total-gross">
              {f.money(inv.total_gross, inv.currency)}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {paying ? <PaymentDialog invoice={inv} onClose={() => setPaying(false)} /> : null}
      {crediting ? <CreditNoteDialog invoice={inv} onClose={() => setCrediting(false)} /> : null}
    </PageContainer>
  );
}

/** The amount still to be paid: gross - posted credit notes - paid (what the server's payment status
 * compares with zero). */
function openAmount(inv: InvoiceDetail): string {
  const cents = Math.round(Number(inv.total_gross) * 100) - Math.round(Number(inv.credited_amount) * 100) - Math.round(Number(inv.amount_paid) * 100);
  return (Math.max(0, cents) / 100).toFixed(2);
}

function PaymentDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  const errorText = useErrorText();
  const pay = useRecordPayment();
  const [amount, setAmount] = useState<string>(() => openAmount(invoice));
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      open
      title={t('invoice.payment')}
      onCancel={onClose}
      confirmLoading={pay.isPending}
      okButtonProps={{ disabled: !(Number(amount) > 0), 'data-testid': 'save-payment' }}
      onOk={() => pay.mutate({ id: invoice.id, amount }, { onSuccess: onClose, onError: (err) => setError(errorText(err)) })}
    >
      <Typography.Paragraph type="secondary">
        {t('invoice.openAmount', { amount: f.money(openAmount(invoice), invoice.currency) })}
      </Typography.Paragraph>
      <label htmlFor="payment-amount">{t('invoice.amount')}</label>
      <InputNumber<string>
        id="payment-amount"
        stringMode
        min="0.01"
        precision={2}
        style={{ width: '100%' }}
        value={amount}
        onChange={(v) => setAmount(v ?? '')}
        data-testid="payment-amount"
      />
      {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} role="alert" /> : null}
    </Modal>
  );
}

/** A credit note of a posted invoice: every line in full by default; lower a quantity (or set it to
 * 0) for a partial one. Created as a draft (or posted at once), then opened. */
function CreditNoteDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const errorText = useErrorText();
  const credit = useCreditNote();
  const [quantities, setQuantities] = useState<Record<number, string>>(() => Object.fromEntries(invoice.lines.map((l) => [l.id, l.quantity])));
  const [note, setNote] = useState('');
  const [postNow, setPostNow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const full = invoice.lines.every((l) => Number(quantities[l.id]) === Number(l.quantity));
  const chosen = invoice.lines.filter((l) => Number(quantities[l.id]) > 0);
  const net = chosen.reduce((sum, l) => sum + (Number(l.amount_net) * Number(quantities[l.id])) / Number(l.quantity || 1), 0);
  const submit = () =>
    credit.mutate(
      {
        id: invoice.id,
        note,
        post: postNow,
        ...(full ? {} : { lines: chosen.map((l) => ({ invoice_line: l.id, quantity: quantities[l.id] })) }),
      },
      { onSuccess: (cn) => void navigate(invoicePath(cn.id)), onError: (err) => setError(errorText(err)) },
    );
  return (
    <Modal
      open
      width={720}
      title={t('invoice.creditTitle', { number: invoice.number })}
      okText={t(full ? 'invoice.creditFull' : 'invoice.creditPartial')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={credit.isPending}
      okButtonProps={{ disabled: chosen.length === 0, 'data-testid': 'create-credit-note' }}
    >
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 520 }}
        dataSource={invoice.lines}
        columns={[
          { title: t('fields.product'), key: 'p', render: (_, l) => `${l.product_number} ${l.description || l.product_name}` },
          { title: t('invoice.invoiced'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
          {
            title: t('invoice.toCredit'),
            key: 'q',
            render: (_, l, index) => (
              <InputNumber<string>
                stringMode
                min="0"
                max={l.quantity}
                aria-label={t('invoice.toCreditOf', { n: index + 1 })}
                value={quantities[l.id]}
                onChange={(v) => setQuantities((all) => ({ ...all, [l.id]: v ?? '0' }))}
                data-testid={`credit-qty-${index}`}
              />
            ),
          },
        ]}
      />
      <Typography.Paragraph style={{ marginTop: 12 }} data-testid="credit-net">
        {t('invoice.creditNet', { amount: f.money(net.toFixed(2), invoice.currency) })}
      </Typography.Paragraph>
      <label htmlFor="credit-note-text">{t('invoice.note')}</label>
      <Input id="credit-note-text" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
      <Checkbox checked={postNow} onChange={(e) => setPostNow(e.target.checked)} style={{ marginTop: 12 }}>
        {t('invoice.postNow')}
      </Checkbox>
      {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} role="alert" /> : null}
    </Modal>
  );
}
