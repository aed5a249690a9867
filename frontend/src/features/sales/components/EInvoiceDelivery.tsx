import { CloudUploadOutlined, MailOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Checkbox, Modal, Popconfirm, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { useFormatters } from '@/shared/utils/format';
import {
  EINVOICE_FORMATS,
  useInvoiceDeliveries,
  useSendEInvoiceEmail,
  useSendPeppol,
  type EInvoiceDelivery,
  type EInvoiceFormat,
  type InvoiceDetail,
  type UblProblem,
} from '../api/sales';

/** The rules a refused e-invoice broke (409 `ubl_invalid` / `facturx_invalid`), else none. */
export function einvoiceProblems(err: unknown): UblProblem[] {
  return isApiError(err) && (err.error === 'ubl_invalid' || err.error === 'facturx_invalid') && Array.isArray(err.data)
    ? (err.data as UblProblem[])
    : [];
}

export function ProblemList({ problems }: { problems: UblProblem[] }) {
  return problems.length ? (
    <ul data-testid="ubl-problems">
      {problems.map((problem) => (
        <li key={problem.rule}>
          {problem.rule}: {problem.message}
        </li>
      ))}
    </ul>
  ) : null;
}

/** "Send by e-mail": the e-invoice files to attach (Factur-X by default) and, optionally, the recipients
 * (left empty: the customer's invoice contact, else its address). Refusals show inside the dialog. */
export function SendEmailDialog({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const send = useSendEInvoiceEmail();
  const [formats, setFormats] = useState<EInvoiceFormat[]>(['facturx']);
  const [to, setTo] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  return (
    <Modal
      open
      title={t('einvoice.emailTitle', { number: invoice.number })}
      onCancel={onClose}
      okText={t('einvoice.send')}
      confirmLoading={send.isPending}
      okButtonProps={{ disabled: formats.length === 0, 'data-testid': 'send-einvoice-email' }}
      onOk={() =>
        send.mutate(
          { id: invoice.id, formats, ...(to.length ? { to } : {}) },
          {
            onSuccess: (delivery) => {
              void message.success(t('einvoice.emailQueued', { recipient: delivery.recipient }));
              onClose();
            },
            onError: setError,
          },
        )
      }
    >
      <Typography.Paragraph strong id="einvoice-formats-label">
        {t('einvoice.files')}
      </Typography.Paragraph>
      <Checkbox.Group<EInvoiceFormat>
        aria-labelledby="einvoice-formats-label"
        value={formats}
        onChange={setFormats}
        options={EINVOICE_FORMATS.map((value) => ({ value, label: t(`einvoice.format.${value}`) }))}
        data-testid="einvoice-formats"
      />
      <Typography.Paragraph strong style={{ marginTop: 16 }}>
        <label htmlFor="einvoice-to">{t('einvoice.recipients')}</label>
      </Typography.Paragraph>
      <Select
        id="einvoice-to"
        mode="tags"
        style={{ width: '100%' }}
        value={to}
        onChange={setTo}
        open={false}
        tokenSeparators={[',', ' ', ';']}
        placeholder={t('einvoice.recipientsDefault')}
        data-testid="einvoice-to"
      />
      {error ? (
        <Alert
          type="error"
          showIcon
          title={errorText(error)}
          description={<ProblemList problems={einvoiceProblems(error)} />}
          style={{ marginTop: 12 }}
          role="alert"
        />
      ) : null}
    </Modal>
  );
}

/** "Send via Peppol" (asks first): the UBL e-invoice to the company's access point. The outcome is
 * recorded either way and listed under "E-invoice deliveries". */
export function PeppolSendButton({ invoice, onError }: { invoice: InvoiceDetail; onError: (err: unknown) => void }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const send = useSendPeppol();
  return (
    <Popconfirm
      title={t('einvoice.confirmPeppol')}
      onConfirm={() =>
        send.mutate(invoice.id, {
          onSuccess: (delivery) => void message.success(t('einvoice.peppolSent', { id: delivery.message_id })),
          onError,
        })
      }
    >
      <Button icon={<CloudUploadOutlined />} loading={send.isPending} data-testid="send-peppol">
        {t('einvoice.peppol')}
      </Button>
    </Popconfirm>
  );
}

export function SendEmailButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation('sales');
  return (
    <Button icon={<MailOutlined />} onClick={onClick} data-testid="send-email">
      {t('einvoice.email')}
    </Button>
  );
}

const STATUS_COLORS: Record<string, string> = { sent: 'green', failed: 'red', queued: 'blue', sending: 'blue', uncertain: 'orange' };

/** The posted document's e-invoice deliveries, newest first: Peppol (message id, or why it failed) and
 * e-mail (the message's status in the e-mail log). */
export function DeliveriesCard({ invoice }: { invoice: InvoiceDetail }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  const query = useInvoiceDeliveries(invoice.id, invoice.status !== 'draft');
  const statusOf = (d: EInvoiceDelivery) => (d.channel === 'email' && d.email_status ? d.email_status : d.status);
  return (
    <Card title={t('einvoice.deliveries')} style={{ marginTop: 16 }} data-testid="einvoice-deliveries">
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<EInvoiceDelivery>
          rowKey="id"
          size="small"
          loading={query.isPending}
          pagination={false}
          dataSource={query.data ?? []}
          locale={{ emptyText: t('einvoice.noDeliveries') }}
          columns={[
            { title: t('einvoice.when'), dataIndex: 'created_at', render: (v: string) => f.dateTime(v) },
            { title: t('einvoice.channel'), dataIndex: 'channel', render: (v: string) => t(`einvoice.channels.${v}`) },
            {
              title: t('einvoice.status'),
              key: 'status',
              render: (_, d) => (
                <Tag color={STATUS_COLORS[statusOf(d)] ?? 'default'} data-testid={`delivery-status-${d.id}`}>
                  {t(`einvoice.statuses.${statusOf(d)}`, { defaultValue: statusOf(d) })}
                </Tag>
              ),
            },
            { title: t('einvoice.recipient'), dataIndex: 'recipient', responsive: ['sm'] },
            {
              title: t('einvoice.detail'),
              key: 'detail',
              render: (_, d) => (d.status === 'failed' ? <Typography.Text type="danger">{d.error_message}</Typography.Text> : d.message_id || d.formats.map((x) => t(`einvoice.format.${x}`)).join(', ')),
            },
          ]}
        />
      )}
    </Card>
  );
}
