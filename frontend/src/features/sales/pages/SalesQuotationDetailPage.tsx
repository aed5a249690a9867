import { CheckOutlined, EditOutlined, FilePdfOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Empty, Flex, Popconfirm, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { formatDate, useFormatters } from '@/shared/utils/format';
import {
  openPdf,
  quotationPdfUrl,
  useAcceptQuotation,
  useDeleteQuotation,
  useQuotation,
  useQuotationAction,
  type QuotationDetail,
  type QuotationLine,
} from '../api/sales';
import { DetailPage } from '@/shared/components/DetailPage';
import { paths } from '@/shared/routing/paths';
import { QuotationStatusTag } from '../components/StatusTags';
import { useMayPermission } from '../hooks/usePermission';

/** /sales/quotations/{id}: header, lines, totals and the actions the status allows: edit, mark sent,
 * accept (makes the sales order and opens it), decline, cancel, the PDF, delete a draft. */
export default function SalesQuotationDetailPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const quotationId = Number(id);
  const query = useQuotation(quotationId);
  return (
    <DetailPage query={query} invalid={!Number.isFinite(quotationId)} notFound={t('quotation.notFound')} backTo={paths.salesQuotations()} backLabel={t('detail.backToList')}>
      {(quotation) => <QuotationView quotation={quotation} />}
    </DetailPage>
  );
}

function QuotationView({ quotation }: { quotation: QuotationDetail }) {
  const { t, i18n } = useTranslation('sales');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const f = useFormatters();
  const errorText = useErrorText();
  const act = useQuotationAction();
  const accept = useAcceptQuotation();
  const remove = useDeleteQuotation();
  const [error, setError] = useState<string | null>(null);
  const [pdfLoading, setPdfLoading] = useState(false);
  const mayChange = useMayPermission('salesorders.change_salesquotation');
  const mayDelete = useMayPermission('salesorders.delete_salesquotation');
  const mayOrder = useMayPermission('salesorders.add_salesorder');
  const allowed = quotation.allowed_actions;

  const onError = (err: unknown) => setError(errorText(err));
  const run = (action: 'send' | 'decline' | 'cancel') => {
    setError(null);
    act.mutate({ id: quotation.id, action }, { onError });
  };
  const onAccept = () => {
    setError(null);
    accept.mutate(quotation.id, {
      onSuccess: (answer) => {
        void message.success(t('quotation.acceptedMessage', { number: answer.order_number }));
        void navigate(paths.salesOrder(answer.sales_order));
      },
      onError,
    });
  };
  const onPdf = () => {
    setPdfLoading(true);
    openPdf(quotationPdfUrl(quotation.id))
      .catch(onError)
      .finally(() => setPdfLoading(false));
  };

  return (
    <PageContainer
      title={
        <Flex gap="small" align="center">
          {quotation.quotation_number} <QuotationStatusTag status={quotation.status} />
        </Flex>
      }
      extra={
        <>
          {mayChange && allowed.includes('edit') ? (
            <Button icon={<EditOutlined />} onClick={() => void navigate(paths.salesQuotationEdit(quotation.id))} data-testid="edit-quotation">
              {t('quotation.edit')}
            </Button>
          ) : null}
          {mayChange && allowed.includes('send') ? (
            <Button icon={<SendOutlined />} onClick={() => run('send')} loading={act.isPending} data-testid="send-quotation">
              {t('quotation.send')}
            </Button>
          ) : null}
          {mayChange && mayOrder && allowed.includes('accept') ? (
            <Popconfirm title={t('quotation.confirmAccept')} onConfirm={onAccept}>
              <Button type="primary" icon={<CheckOutlined />} loading={accept.isPending} data-testid="accept-quotation">
                {t('quotation.accept')}
              </Button>
            </Popconfirm>
          ) : null}
          <Button icon={<FilePdfOutlined />} onClick={onPdf} loading={pdfLoading} data-testid="quotation-pdf">
            {t('quotation.pdf')}
          </Button>
          {mayChange && allowed.includes('decline') ? (
            <Popconfirm title={t('quotation.confirmDecline')} onConfirm={() => run('decline')}>
              <Button data-testid="decline-quotation">{t('quotation.decline')}</Button>
            </Popconfirm>
          ) : null}
          {mayChange && allowed.includes('cancel') ? (
            <Popconfirm title={t('quotation.confirmCancel')} onConfirm={() => run('cancel')}>
              <Button danger>{t('quotation.cancel')}</Button>
            </Popconfirm>
          ) : null}
          {mayDelete && allowed.includes('delete') ? (
            <Popconfirm
              title={t('quotation.confirmDelete')}
              onConfirm={() => remove.mutate(quotation.id, { onSuccess: () => void navigate(paths.salesQuotations()), onError })}
            >
              <Button danger type="text" data-testid="delete-quotation">
                {t('quotation.delete')}
              </Button>
            </Popconfirm>
          ) : null}
        </>
      }
    >
      {error ? (
        <Alert type="error" showIcon title={error} closable={{ onClose: () => setError(null) }} style={{ marginBottom: 12 }} data-testid="quotation-error" />
      ) : null}
      {quotation.status === 'expired' ? (
        <Alert type="warning" showIcon title={t('quotation.expiredNotice')} style={{ marginBottom: 12 }} data-testid="quotation-expired" />
      ) : null}
      <Card style={{ marginBottom: 16 }}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('fields.customer')}>
            {quotation.customer_detail.number} {quotation.customer_detail.name}
          </Descriptions.Item>
          <Descriptions.Item label={t('quotation.fields.quotation_date')}>{formatDate(quotation.quotation_date, i18n.language)}</Descriptions.Item>
          <Descriptions.Item label={t('quotation.fields.valid_until')}>{formatDate(quotation.valid_until, i18n.language)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.customer_reference')}>{quotation.customer_reference || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.payment_terms_days')}>{quotation.payment_terms_days}</Descriptions.Item>
          <Descriptions.Item label={t('quotation.fields.language')}>{t(`quotation.language.${quotation.language}`)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.owner')}>{quotation.owner_name || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('quotation.fields.sales_order')}>
            {quotation.sales_order && quotation.sales_order_number ? (
              <Typography.Link onClick={() => void navigate(paths.salesOrder(quotation.sales_order as number))} data-testid="quotation-order">
                {quotation.sales_order_number}
              </Typography.Link>
            ) : (
              '—'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('quotation.fields.terms')}>{quotation.terms || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('detail.lines')}>
        <Lines quotation={quotation} />
        <Descriptions size="small" column={{ xs: 1, sm: 3 }} style={{ marginTop: 16 }}>
          <Descriptions.Item label={t('fields.total_net')}>{f.money(quotation.total_net, quotation.currency)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.total_vat')}>{f.money(quotation.total_vat, quotation.currency)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.total_gross')}>
            <Typography.Text strong data-testid="quotation-total-gross">
              {f.money(quotation.total_gross, quotation.currency)}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </PageContainer>
  );
}

function Lines({ quotation }: { quotation: QuotationDetail }) {
  const { t } = useTranslation('sales');
  const f = useFormatters();
  return (
    <Table<QuotationLine>
      rowKey="id"
      size="small"
      pagination={false}
      scroll={{ x: 800 }}
      dataSource={quotation.lines}
      locale={{ emptyText: <Empty description={t('quotation.noLines')} /> }}
      columns={[
        { title: '#', dataIndex: 'line_number', width: 50 },
        {
          title: t('fields.product'),
          key: 'product',
          render: (_, line) => (
            <>
              <Typography.Text strong>{line.product_number}</Typography.Text> {line.description || line.product_name}
            </>
          ),
        },
        { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
        { title: t('fields.unit_price'), dataIndex: 'unit_price', align: 'right', render: (v: string) => f.money(v, quotation.currency) },
        { title: t('fields.discount_percent'), dataIndex: 'discount_percent', align: 'right', render: (v: string) => f.qty(v) },
        { title: t('fields.vat_rate'), dataIndex: 'vat_rate', align: 'right', render: (v: string) => f.qty(v) },
        { title: t('fields.amount_net'), dataIndex: 'amount_net', align: 'right', render: (v: string) => f.money(v, quotation.currency) },
      ]}
    />
  );
}
