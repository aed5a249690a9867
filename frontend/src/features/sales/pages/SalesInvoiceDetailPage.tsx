import { FileOutlined, FilePdfOutlined, FileProtectOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Checkbox, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Modal, Popconfirm, Select, Switch, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { useMayPermission } from '../hooks/usePermission';
import { useFormatters } from '@/shared/utils/format';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import {
  downloadFacturx,
  downloadUbl,
  invoicePdfUrl,
  openPdf,
  useCreditNote,
  useDeleteInvoice,
  useInvoice,
  usePostInvoice,
  useRecordPayment,
  useUpdateInvoice,
  type InvoiceDetail,
  type InvoicePayment,
  type UblProblem,
} from '../api/sales';
import { DetailPage } from '@/shared/components/DetailPage';
import { DeliveriesCard, einvoiceProblems, PeppolSendButton, ProblemList, SendEmailButton, SendEmailDialog } from '../components/EInvoiceDelivery';
import { PaymentStatusTag } from '../components/StatusTags';
import { usePhone } from '@/shared/hooks/usePhone';
import { InvoiceAccountingState } from '@/shared/accounting/InvoiceAccountingState';
import { paths } from '@/shared/routing/paths';

/** /sales/invoices/{id}: an invoice or credit note; a draft's details (note, payment terms, language,
 * reverse charge) are edited in a form, and the draft posted (numbered) or deleted; a posted one is
 * credited or paid; the PDF opens in a new tab. */
export default function SalesInvoiceDetailPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const invoiceId = Number(id);
  const query = useInvoice(invoiceId);
  return (
    <DetailPage query={query} invalid={!Number.isFinite(invoiceId)} notFound={t('invoice.notFound')} backTo={paths.salesInvoices()} backLabel={t('detail.backToList')}>
      {(inv) => <InvoiceView inv={inv} />}
    </DetailPage>
  );
}

function InvoiceView({ inv }: { inv: InvoiceDetail }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const errorText = useErrorText();
  const post = usePostInvoice();
  const remove = useDeleteInvoice();
  const [error, setError] = useState<string | null>(null);
  const [ublProblems, setUblProblems] = useState<UblProblem[]>([]);
  const [paying, setPaying] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const [mailing, setMailing] = useState(false);
  const [downloading, setDownloading] = useState<'ubl' | 'facturx' | null>(null);
  const [detailsDirty, setDetailsDirty] = useState(false);
  const mayChange = useMayPermission('salesorders.change_invoice');
  const mayAdd = useMayPermission('salesorders.add_invoice');
  const mayDelete = useMayPermission('salesorders.delete_invoice');
  const onError = (err: unknown) => setError(errorText(err));
  const onUblError = (err: unknown) => {
    setError(errorText(err));
    setUblProblems(einvoiceProblems(err));
  };
  const downloadEInvoice = (format: 'ubl' | 'facturx') => {
    setUblProblems([]);
    setDownloading(format);
    const run = format === 'ubl' ? downloadUbl(inv.id, `${inv.number}.xml`) : downloadFacturx(inv.id, `${inv.number}-factur-x.pdf`);
    void run.catch(onUblError).finally(() => setDownloading(null));
  };
  const draft = inv.status === 'draft';
  const isInvoice = inv.kind === 'invoice';
  const editable = draft && mayChange;
  const phone = usePhone();

  return (
    <PageContainer
      title={
        <Flex gap="small" align="center" wrap>
          {t(`kind.${inv.kind}`)} {inv.number || t('invoice.draftNumber')} <PaymentStatusTag status={inv.payment_status} />
        </Flex>
      }
      extra={
        <>
          <Button icon={<FilePdfOutlined />} onClick={() => void openPdf(invoicePdfUrl(inv.id)).catch(onError)} data-testid="invoice-pdf">
            {t('invoice.pdf')}
          </Button>
          {draft ? null : (
            <>
              <Button icon={<FileOutlined />} loading={downloading === 'ubl'} onClick={() => downloadEInvoice('ubl')} data-testid="invoice-ubl">
                {t('invoice.ubl')}
              </Button>
              <Button
                icon={<FileProtectOutlined />}
                loading={downloading === 'facturx'}
                onClick={() => downloadEInvoice('facturx')}
                data-testid="invoice-facturx"
              >
                {t('einvoice.facturx')}
              </Button>
            </>
          )}
          {!draft && mayChange ? (
            <>
              <SendEmailButton onClick={() => setMailing(true)} />
              <PeppolSendButton invoice={inv} onError={onUblError} />
            </>
          ) : null}
          {editable ? (
            <Popconfirm title={t('invoice.confirmPost')} onConfirm={() => post.mutate(inv.id, { onError })} disabled={detailsDirty}>
              <Button
                type="primary"
                loading={post.isPending}
                disabled={detailsDirty}
                title={detailsDirty ? t('invoice.saveBeforePost') : undefined}
                data-testid="post-invoice"
              >
                {t('invoice.post')}
              </Button>
            </Popconfirm>
          ) : null}
          {draft && mayDelete ? (
            <Popconfirm title={t('invoice.confirmDelete')} onConfirm={() => remove.mutate(inv.id, { onSuccess: () => void navigate(paths.salesInvoices()), onError })}>
              <Button danger>{t('invoice.delete')}</Button>
            </Popconfirm>
          ) : null}
          {!draft && isInvoice && mayAdd ? (
            <Button onClick={() => setCrediting(true)} data-testid="credit-note">
              {t('invoice.creditNote')}
            </Button>
          ) : null}
          {!draft && isInvoice && mayChange && inv.payment_status !== 'paid' && inv.payment_status !== 'credited' ? (
            <Button onClick={() => setPaying(true)} data-testid="record-payment">
              {t('invoice.payment')}
            </Button>
          ) : null}
        </>
      }
    >
      {error ? (
        <Alert
          type="error"
          showIcon
          title={error}
          description={ublProblems.length ? <ProblemList problems={ublProblems} /> : undefined}
          closable={{
            onClose: () => {
              setError(null);
              setUblProblems([]);
            },
          }}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Card style={{ marginBottom: 16 }}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('fields.order_number')}>
            <Button type="link" size="small" onClick={() => void navigate(paths.salesOrder(inv.sales_order))}>
              {inv.order_number}
            </Button>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.customer')}>{inv.customer_name}</Descriptions.Item>
          <Descriptions.Item label={t('fields.issue_date')}>{f.date(inv.issue_date)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.due_date')}>{f.date(inv.due_date)}</Descriptions.Item>
          {inv.credited_invoice ? (
            <Descriptions.Item label={t('invoice.corrects')}>
              <Button type="link" size="small" onClick={() => void navigate(paths.salesInvoice(inv.credited_invoice as number))}>
                {inv.credited_invoice_number}
              </Button>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('invoice.seller')}>
            {[inv.seller_name, inv.seller_address, inv.seller_vat_number, inv.seller_registration_number].filter(Boolean).join(' · ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.buyer')}>
            {[inv.buyer_name, inv.buyer_address, inv.buyer_vat_number].filter(Boolean).join(' · ') || '—'}
          </Descriptions.Item>
          {editable ? null : (
            <>
              <Descriptions.Item label={t('fields.payment_terms_days')}>
                <span data-testid="invoice-terms">{t('invoice.termsDays', { count: inv.payment_terms_days })}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('invoice.language')}>{inv.language === 'zh' ? '中文' : 'English'}</Descriptions.Item>
              <Descriptions.Item label={t('invoice.reverseCharge')}>{t(inv.reverse_charge ? 'invoice.yes' : 'invoice.no')}</Descriptions.Item>
              <Descriptions.Item label={t('invoice.note')}>
                <span data-testid="invoice-note" style={{ whiteSpace: 'pre-wrap' }}>
                  {inv.note || '—'}
                </span>
              </Descriptions.Item>
            </>
          )}
          <Descriptions.Item label={t('fields.amount_paid')}>
            <span data-testid="invoice-amount-paid">{f.money(inv.amount_paid, inv.currency)}</span>
          </Descriptions.Item>
          {isInvoice && !draft ? (
            <>
              <Descriptions.Item label={t('invoice.credited')}>
                <span data-testid="invoice-credited">{f.money(inv.credited_amount, inv.currency)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('invoice.amountDue')}>
                <Typography.Text strong data-testid="invoice-amount-due">
                  {f.money(inv.amount_due, inv.currency)}
                </Typography.Text>
              </Descriptions.Item>
            </>
          ) : null}
          {inv.seller_iban && isInvoice ? (
            <Descriptions.Item label={t('invoice.payTo')}>
              <Typography.Text copyable={{ text: inv.seller_iban }} data-testid="invoice-iban">
                {[inv.seller_iban.replace(/(.{4})(?=.)/g, '$1 '), inv.seller_bic].filter(Boolean).join(' · ')}
              </Typography.Text>
            </Descriptions.Item>
          ) : null}
          {inv.payment_reference ? (
            <Descriptions.Item label={t('invoice.paymentReference')}>
              <Typography.Text copyable data-testid="invoice-payment-reference">
                {inv.payment_reference.replace(/(.{4})(?=.)/g, '$1 ')}
              </Typography.Text>
            </Descriptions.Item>
          ) : null}
          {inv.credit_notes.length > 0 ? (
            <Descriptions.Item label={t('invoice.creditNotes')}>
              <Flex gap="small" wrap data-testid="invoice-credit-notes">
                {inv.credit_notes.map((note) => (
                  <Button key={note.id} type="link" size="small" onClick={() => void navigate(paths.salesInvoice(note.id))}>
                    {note.number || t('invoice.draftNumber')} · {f.money(note.total_gross, inv.currency)}
                    {note.status === 'draft' ? ` (${t('paymentStatus.draft')})` : ''}
                  </Button>
                ))}
              </Flex>
            </Descriptions.Item>
          ) : null}
          {inv.vat_mention ? (
            <Descriptions.Item label={t('invoice.vatMention')}>
              <span data-testid="invoice-vat-mention">{inv.vat_mention}</span>
            </Descriptions.Item>
          ) : null}
          {inv.accounting ? (
            <Descriptions.Item label={t('accounting:invoice.label')}>
              <InvoiceAccountingState state={inv.accounting} />
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      </Card>
      {editable ? <DraftDetailsForm invoice={inv} onDirtyChange={setDetailsDirty} /> : null}
      <PaymentsCard invoice={inv} />
      <Card>
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          scroll={phone ? undefined : { x: 800 }}
          dataSource={inv.lines}
          columns={[
            { title: t('fields.product'), key: 'p', render: (_, l) => `${l.product_number} ${l.description || l.product_name}` },
            { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
            { title: t('fields.unit_price'), dataIndex: 'unit_price', align: 'right', render: (v: string) => f.unitCost(v) },
            { title: t('fields.discount_percent'), dataIndex: 'discount_percent', align: 'right', responsive: ['sm'] },
            { title: t('fields.vat_rate'), dataIndex: 'vat_rate', align: 'right', responsive: ['sm'] },
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
      {draft ? null : <DeliveriesCard invoice={inv} />}
      {mailing ? <SendEmailDialog invoice={inv} onClose={() => setMailing(false)} /> : null}
      {paying ? <PaymentDialog invoice={inv} onClose={() => setPaying(false)} /> : null}
      {crediting ? <CreditNoteDialog invoice={inv} onClose={() => setCrediting(false)} /> : null}
    </PageContainer>
  );
}

interface DraftDetails {
  note: string;
  payment_terms_days: number | null;
  language: 'en' | 'zh';
  reverse_charge: boolean;
}

const detailsOf = (inv: InvoiceDetail): DraftDetails => ({
  note: inv.note,
  payment_terms_days: inv.payment_terms_days,
  language: inv.language,
  reverse_charge: inv.reverse_charge,
});

const sameDetails = (a: DraftDetails, b: DraftDetails) =>
  a.note === b.note && a.payment_terms_days === b.payment_terms_days && a.language === b.language && a.reverse_charge === b.reverse_charge;

/**
 * A draft's note, payment terms, language and reverse charge. Untouched, it shows the invoice as the
 * server has it now; once edited it keeps the user's values and the `updated_at` they started from, so
 * the save is refused (409 `invoice_changed`, or `invoice_posted`) if someone changed or posted the draft
 * meanwhile. Leaving the page with unsaved changes asks first; typing the old values back makes it clean.
 */
function DraftDetailsForm({ invoice, onDirtyChange }: { invoice: InvoiceDetail; onDirtyChange: (dirty: boolean) => void }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const update = useUpdateInvoice();
  const [edit, setEdit] = useState<{ values: DraftDetails; basedOn: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const current = detailsOf(invoice);
  const values = edit?.values ?? current;
  const dirty = edit !== null && !sameDetails(edit.values, current);
  useUnsavedChangesGuard(dirty);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const change = (patch: Partial<DraftDetails>) =>
    setEdit((e) => ({ values: { ...(e?.values ?? current), ...patch }, basedOn: e?.basedOn ?? invoice.updated_at }));
  const fieldError = (name: keyof DraftDetails): { validateStatus?: 'error'; help?: string } =>
    fieldErrors[name] ? { validateStatus: 'error', help: fieldErrors[name].join(' ') } : {};

  const save = () => {
    if (!edit) return;
    setError(null);
    setFieldErrors({});
    update.mutate(
      {
        id: invoice.id,
        note: values.note,
        language: values.language,
        reverse_charge: values.reverse_charge,
        ...(values.payment_terms_days !== null ? { payment_terms_days: values.payment_terms_days } : {}),
        unchanged_since: edit.basedOn,
      },
      {
        onSuccess: () => {
          setEdit(null);
          void message.success(t('invoice.detailsSaved'));
        },
        onError: (err) => {
          setFieldErrors((isApiError(err) ? err.fieldErrors : null) ?? {});
          setError(errorText(err));
        },
      },
    );
  };

  return (
    <Card title={t('invoice.draftDetails')} style={{ marginBottom: 16 }} data-testid="invoice-draft-details">
      <Form layout="vertical" onFinish={save}>
        <Flex gap="middle" wrap>
          <Form.Item label={t('fields.payment_terms_days')} htmlFor="invoice-terms" style={{ width: 180 }} {...fieldError('payment_terms_days')}>
            <InputNumber<number>
              id="invoice-terms"
              min={0}
              max={365}
              precision={0}
              style={{ width: '100%' }}
              value={values.payment_terms_days}
              onChange={(value) => change({ payment_terms_days: value ?? null })}
            />
          </Form.Item>
          <Form.Item label={t('invoice.language')} htmlFor="invoice-language" style={{ width: 180 }} {...fieldError('language')}>
            <Select
              id="invoice-language"
              value={values.language}
              onChange={(language: 'en' | 'zh') => change({ language })}
              options={[
                { value: 'en', label: 'English' },
                { value: 'zh', label: '中文' },
              ]}
            />
          </Form.Item>
          <Form.Item label={t('invoice.reverseCharge')} htmlFor="invoice-reverse-charge" {...fieldError('reverse_charge')}>
            <Switch id="invoice-reverse-charge" checked={values.reverse_charge} onChange={(reverse_charge) => change({ reverse_charge })} />
          </Form.Item>
        </Flex>
        <Form.Item label={t('invoice.note')} htmlFor="invoice-note-input" extra={t('invoice.noteHint')} {...fieldError('note')}>
          <Input.TextArea
            id="invoice-note-input"
            value={values.note}
            maxLength={1000}
            showCount
            autoSize={{ minRows: 2, maxRows: 6 }}
            onChange={(e) => change({ note: e.target.value })}
          />
        </Form.Item>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} role="alert" data-testid="invoice-details-error" /> : null}
        <Flex gap="small" wrap>
          <Button type="primary" htmlType="submit" disabled={!dirty} loading={update.isPending} data-testid="save-invoice-details">
            {t('invoice.saveDetails')}
          </Button>
          <Button
            disabled={!dirty}
            onClick={() => {
              setEdit(null);
              setError(null);
              setFieldErrors({});
            }}
          >
            {t('invoice.discardDetails')}
          </Button>
        </Flex>
      </Form>
    </Card>
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
  const [receivedOn, setReceivedOn] = useState<Dayjs | null>(() => dayjs());
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = () =>
    pay.mutate(
      { id: invoice.id, amount, received_on: receivedOn ? receivedOn.format('YYYY-MM-DD') : null, reference },
      { onSuccess: onClose, onError: (err) => setError(errorText(err)) },
    );
  return (
    <Modal
      open
      title={t('invoice.payment')}
      onCancel={onClose}
      confirmLoading={pay.isPending}
      okButtonProps={{ disabled: !(Number(amount) > 0) || !receivedOn, 'data-testid': 'save-payment' }}
      onOk={save}
    >
      <Typography.Paragraph type="secondary">
        {t('invoice.openAmount', { amount: f.money(openAmount(invoice), invoice.currency) })}
      </Typography.Paragraph>
      <Flex vertical gap={12}>
        <div>
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
        </div>
        <div>
          <label htmlFor="payment-received-on">{t('invoice.receivedOn')}</label>
          <DatePicker
            id="payment-received-on"
            allowClear={false}
            style={{ width: '100%' }}
            value={receivedOn}
            onChange={(value) => setReceivedOn(value)}
            disabledDate={(day) => day.isAfter(dayjs(), 'day')}
            data-testid="payment-received-on"
          />
        </div>
        <div>
          <label htmlFor="payment-reference">{t('invoice.paymentReferenceReceived')}</label>
          <Input
            id="payment-reference"
            maxLength={140}
            value={reference}
            onChange={(event) => setReference(event.target.value)}
            placeholder={t('invoice.paymentReferencePlaceholder')}
            data-testid="payment-reference"
          />
        </div>
      </Flex>
      {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} role="alert" /> : null}
    </Modal>
  );
}

/** The payments received against a posted invoice, oldest first: each a row whose anchor
 * (#payment-<id>) a link can point at. */
function PaymentsCard({ invoice }: { invoice: InvoiceDetail }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  if (invoice.payments.length === 0) return null;
  return (
    <Card title={t('invoice.payments')} style={{ marginBottom: 16 }} data-testid="invoice-payments">
      <Table<InvoicePayment>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={invoice.payments}
        onRow={(payment) => ({ id: `payment-${payment.id}` })}
        columns={[
          { title: t('invoice.receivedOn'), dataIndex: 'received_on', render: (v: string) => f.date(v) },
          { title: t('invoice.amount'), dataIndex: 'amount', align: 'right', render: (v: string) => f.money(v, invoice.currency) },
          { title: t('invoice.paymentReferenceReceived'), dataIndex: 'reference', render: (v: string) => v || '—' },
          {
            title: t('invoice.paymentSource'),
            key: 'source',
            render: (_, p) => (p.source === 'manual' && p.created_by_name ? p.created_by_name : t(`paymentSource.${p.source}`)),
          },
        ]}
      />
    </Card>
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
      { onSuccess: (cn) => void navigate(paths.salesInvoice(cn.id)), onError: (err) => setError(errorText(err)) },
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
