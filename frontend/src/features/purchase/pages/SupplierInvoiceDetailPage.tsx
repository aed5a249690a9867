import { CheckOutlined, CloseOutlined, DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Modal, Result, Skeleton, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { useMayPermission } from '@/shared/session/permissions';
import { useSession } from '@/shared/session/useSession';
import { useFormatters } from '@/shared/utils/format';
import { type SupplierInvoiceAction } from '../api/endpoints';
import { paths } from '@/shared/routing/paths';
import {
  downloadSupplierInvoiceOriginal,
  supplierInvoiceQueryOptions,
  useDecideSupplierInvoice,
  useDeleteSupplierInvoice,
} from '../api/supplierInvoices';
import type { SupplierInvoiceDetail, SupplierInvoiceLineMatch } from '../api/types';
import { MatchStatusTag, SupplierInvoiceStatusTag } from '../components/MatchStatusTag';
import { SUPPLIER_INVOICE_PERMS } from '../permissions';
import styles from '../components/purchase.module.css';

/** What the uploaded e-invoice breaks (the XSD of its syntax, the EN 16931 rules): rule and message. */
function FindingsList({ invoice }: { invoice: SupplierInvoiceDetail }) {
  return (
    <ul className={styles.findings} data-testid="supplier-invoice-findings">
      {invoice.einvoice_findings.map((finding, index) => (
        <li key={`${finding.rule}-${index}`}>
          <Typography.Text code>{finding.rule}</Typography.Text> {finding.message}
        </li>
      ))}
    </ul>
  );
}

/** Approve (a reason is asked for while the match is not "matched"; the e-invoice's findings are shown) or
 * reject (an optional reason). */
function DecisionDialog({
  invoice,
  act,
  onClose,
}: {
  invoice: SupplierInvoiceDetail;
  act: SupplierInvoiceAction;
  onClose: () => void;
}) {
  const { t } = useTranslation('purchase');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const decide = useDecideSupplierInvoice(invoice.id);
  const [form] = Form.useForm<{ reason: string }>();
  const [error, setError] = useState<string | null>(null);
  const needsReason = act === 'approve' && invoice.match_status !== 'matched';
  const submit = async ({ reason }: { reason?: string }) => {
    setError(null);
    try {
      await decide.mutateAsync({ act, reason: reason ?? '' });
      void message.success(t(`supplierInvoices.done.${act}`, { number: invoice.invoice_number }));
      onClose();
    } catch (caught) {
      setError(errorText(caught));
    }
  };
  return (
    <Modal
      open
      title={t(`supplierInvoices.dialog.${act}Title`, { number: invoice.invoice_number })}
      okText={t(`supplierInvoices.${act}`)}
      okButtonProps={{ danger: act === 'reject', loading: decide.isPending, 'data-testid': 'supplier-invoice-decide' }}
      cancelText={t('actions.keep')}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {needsReason ? (
        <Alert type="warning" showIcon className={styles.section} title={t('supplierInvoices.dialog.mismatch')} />
      ) : null}
      {act === 'approve' && invoice.einvoice_findings.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          className={styles.section}
          title={t('supplierInvoices.dialog.findings', { count: invoice.einvoice_findings.length })}
          description={<FindingsList invoice={invoice} />}
          data-testid="supplier-invoice-approve-findings"
        />
      ) : null}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="reason"
          label={t('supplierInvoices.fields.reason')}
          rules={needsReason ? [{ required: true, whitespace: true, message: t('supplierInvoices.dialog.reasonRequired') }] : []}
        >
          <Input.TextArea rows={3} maxLength={500} data-testid="supplier-invoice-reason" />
        </Form.Item>
      </Form>
      {error ? <Alert type="error" showIcon title={error} /> : null}
    </Modal>
  );
}

function Actions({ invoice }: { invoice: SupplierInvoiceDetail }) {
  const { t } = useTranslation('purchase');
  const { modal, message } = App.useApp();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const mayChange = useMayPermission(SUPPLIER_INVOICE_PERMS.change);
  const mayDelete = useMayPermission(SUPPLIER_INVOICE_PERMS.delete);
  const remove = useDeleteSupplierInvoice(invoice.id);
  const [deciding, setDeciding] = useState<SupplierInvoiceAction | null>(null);
  const draft = invoice.status === 'draft';
  const askDelete = () =>
    modal.confirm({
      title: t('supplierInvoices.dialog.deleteTitle', { number: invoice.invoice_number }),
      content: t('supplierInvoices.dialog.deleteText'),
      okText: t('supplierInvoices.delete'),
      okButtonProps: { danger: true },
      cancelText: t('actions.keep'),
      onOk: async () => {
        try {
          await remove.mutateAsync();
          void message.success(t('supplierInvoices.done.delete', { number: invoice.invoice_number }));
          void navigate(paths.supplierInvoices());
        } catch (error) {
          void message.error(errorText(error));
        }
      },
    });
  return (
    <Space wrap>
      {draft && mayChange ? (
        <>
          <Button type="primary" icon={<CheckOutlined />} onClick={() => setDeciding('approve')} data-testid="supplier-invoice-approve">
            {t('supplierInvoices.approve')}
          </Button>
          <Button danger icon={<CloseOutlined />} onClick={() => setDeciding('reject')} data-testid="supplier-invoice-reject">
            {t('supplierInvoices.reject')}
          </Button>
        </>
      ) : null}
      {draft && mayDelete ? (
        <Button icon={<DeleteOutlined />} onClick={askDelete} data-testid="supplier-invoice-delete">
          {t('supplierInvoices.delete')}
        </Button>
      ) : null}
      <Button
        icon={<DownloadOutlined />}
        onClick={() => void downloadSupplierInvoiceOriginal(invoice).catch((error: unknown) => void message.error(errorText(error)))}
        data-testid="supplier-invoice-original"
      >
        {t('supplierInvoices.original')}
      </Button>
      {deciding ? <DecisionDialog invoice={invoice} act={deciding} onClose={() => setDeciding(null)} /> : null}
    </Space>
  );
}

/** /purchase/supplier-invoices/{id}: the invoice read from the e-invoice, its order and the 3-way match per line. */
export default function SupplierInvoiceDetailPage() {
  const { t } = useTranslation('purchase');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const f = useFormatters();
  const tenant = useSession((s) => s.tenantId);
  const query = useQuery({ ...supplierInvoiceQueryOptions(tenant, id), enabled: /^\d+$/.test(id) });

  if (query.isLoading) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError || !query.data) {
    if (!query.data && (!query.isError || (isApiError(query.error) && query.error.status === 404))) {
      return (
        <Result
          status="404"
          title={t('supplierInvoices.notFound')}
          extra={<Button onClick={() => void navigate(paths.supplierInvoices())}>{t('supplierInvoices.backToList')}</Button>}
        />
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const invoice = query.data;
  const money = (value: string | null | undefined) => (value === undefined || value === null ? '—' : f.money(value, invoice.currency));
  const qty = (value: string | null | undefined) => (value === undefined || value === null ? '—' : f.qty(value));
  return (
    <PageContainer
      title={`${t(invoice.kind === 'credit_note' ? 'supplierInvoices.kind.credit_note' : 'supplierInvoices.kind.invoice')} ${invoice.invoice_number}`}
      extra={<Actions invoice={invoice} />}
    >
      <Card className={styles.section}>
        <Descriptions
          column={{ xs: 1, sm: 2, lg: 3 }}
          size="small"
          items={[
            {
              key: 'status',
              label: t('supplierInvoices.fields.status'),
              children: <SupplierInvoiceStatusTag status={invoice.status} />,
            },
            { key: 'match', label: t('supplierInvoices.fields.match'), children: <MatchStatusTag status={invoice.match_status} /> },
            {
              key: 'supplier',
              label: t('fields.supplier'),
              children: invoice.supplier ? `${invoice.supplier.number} · ${invoice.supplier.name}` : (
                <Typography.Text type="warning">{t('supplierInvoices.unknownSupplier', { name: invoice.seller_name })}</Typography.Text>
              ),
            },
            {
              key: 'order',
              label: t('supplierInvoices.fields.purchase_order'),
              children: invoice.purchase_order ? (
                <Link to={paths.purchaseOrder(invoice.purchase_order.order_number)} data-testid="supplier-invoice-order">
                  {invoice.purchase_order.order_number}
                </Link>
              ) : (
                <Typography.Text type="warning">
                  {invoice.order_reference
                    ? t('supplierInvoices.unknownOrder', { reference: invoice.order_reference })
                    : t('supplierInvoices.noOrder')}
                </Typography.Text>
              ),
            },
            { key: 'issue', label: t('supplierInvoices.fields.issue_date'), children: f.date(invoice.issue_date) },
            { key: 'due', label: t('supplierInvoices.fields.due_date'), children: f.date(invoice.due_date) },
            { key: 'net', label: t('supplierInvoices.fields.total_net'), children: money(invoice.total_net) },
            { key: 'vat', label: t('supplierInvoices.fields.total_vat'), children: money(invoice.total_vat) },
            { key: 'gross', label: t('supplierInvoices.fields.total_gross'), children: money(invoice.total_gross) },
            { key: 'seller', label: t('supplierInvoices.fields.seller'), children: [invoice.seller_name, invoice.seller_vat_id].filter(Boolean).join(' · ') },
            { key: 'syntax', label: t('supplierInvoices.fields.syntax'), children: t(`supplierInvoices.syntax.${invoice.syntax}`) },
            ...(invoice.decision_reason
              ? [{ key: 'reason', label: t('supplierInvoices.fields.reason'), span: 'filled' as const, children: invoice.decision_reason }]
              : []),
          ]}
        />
      </Card>
      {invoice.einvoice_findings.length > 0 ? (
        <Card title={t('supplierInvoices.findings.title', { count: invoice.einvoice_findings.length })} className={styles.section}>
          <Typography.Paragraph type="secondary">{t('supplierInvoices.findings.help')}</Typography.Paragraph>
          <FindingsList invoice={invoice} />
        </Card>
      ) : null}
      <Card title={t('supplierInvoices.linesTitle')}>
        <Typography.Paragraph type="secondary">
          {t('supplierInvoices.matchHelp', { tolerance: invoice.price_tolerance })}
        </Typography.Paragraph>
        <Table<SupplierInvoiceLineMatch>
          rowKey="id"
          dataSource={invoice.lines}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="supplier-invoice-lines"
          columns={[
            { title: t('supplierInvoices.lines.line'), dataIndex: 'line_id', width: 64 },
            {
              title: t('supplierInvoices.lines.item'),
              key: 'item',
              render: (_, line) => (
                <>
                  <Typography.Text strong>{line.seller_item_id || '—'}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{line.description}</Typography.Text>
                </>
              ),
            },
            {
              title: t('supplierInvoices.lines.orderLine'),
              dataIndex: 'order_line_number',
              render: (value: number | null) => (value === null ? '—' : value),
            },
            { title: t('supplierInvoices.lines.quantity'), key: 'quantity', align: 'right', render: (_, line) => `${qty(line.quantity)} ${line.unit_code}` },
            { title: t('supplierInvoices.lines.ordered'), dataIndex: 'ordered', align: 'right', render: qty },
            { title: t('supplierInvoices.lines.received'), dataIndex: 'received', align: 'right', render: qty },
            { title: t('supplierInvoices.lines.invoiced'), dataIndex: 'invoiced', align: 'right', render: qty },
            { title: t('supplierInvoices.lines.price'), dataIndex: 'net_price', align: 'right', render: money },
            { title: t('supplierInvoices.lines.orderPrice'), dataIndex: 'order_price', align: 'right', render: money },
            { title: t('supplierInvoices.lines.lineNet'), dataIndex: 'line_net', align: 'right', render: money },
            {
              title: t('supplierInvoices.lines.match'),
              dataIndex: 'status',
              render: (_, line) => <MatchStatusTag status={line.status} />,
            },
          ]}
        />
      </Card>
    </PageContainer>
  );
}
