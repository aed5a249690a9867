import { paths } from '@/shared/routing/paths';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { usePhone } from '@/shared/hooks/usePhone';
import { formatDate, useFormatters } from '@/shared/utils/format';
import {
  CUSTOMERS_URL,
  QUOTATION_STATUSES,
  QUOTATIONS_URL,
  fetchCustomer,
  searchCustomers,
  type CustomerOption,
  type Quotation,
} from '../api/sales';
import { QuotationStatusTag } from '../components/StatusTags';
import { useMayPermission } from '../hooks/usePermission';

const customerOption = (c: CustomerOption) => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const idOf = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined);

/** /sales/quotations: every quotation, filtered by status (expired included) and customer, searched,
 * sorted and exported, as the order list. */
export default function SalesQuotationsPage() {
  const { t, i18n } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const phone = usePhone();
  const mayAdd = useMayPermission('salesorders.add_salesquotation');

  const columns: ServerColumn<Quotation>[] = [
    {
      title: t('quotation.fields.quotation_number'),
      dataIndex: 'quotation_number',
      sorter: true,
      fixed: 'left',
      render: (value: string, quotation) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          <PhoneLine>{quotation.customer_detail.name}</PhoneLine>
        </>
      ),
    },
    {
      title: t('quotation.fields.quotation_date'),
      dataIndex: 'quotation_date',
      sorter: true,
      hidden: phone,
      render: (v: string) => formatDate(v, i18n.language),
    },
    {
      title: t('quotation.fields.valid_until'),
      dataIndex: 'valid_until',
      sorter: true,
      hidden: phone,
      render: (v: string) => formatDate(v, i18n.language),
    },
    {
      title: t('fields.customer'),
      key: 'customer__name',
      sorter: true,
      hidden: phone,
      render: (_, quotation) => (
        <>
          {quotation.customer_detail.name}
          <br />
          <Typography.Text type="secondary">{quotation.customer_detail.number}</Typography.Text>
        </>
      ),
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      hidden: phone,
      render: (_, quotation) => <QuotationStatusTag status={quotation.status} />,
    },
    {
      title: t('fields.total_gross'),
      dataIndex: 'total_gross',
      sorter: true,
      align: 'right',
      render: (value: string, quotation) => (
        <>
          {f.money(value, quotation.currency)}
          <PhoneLine secondary={false}>
            <QuotationStatusTag status={quotation.status} />
          </PhoneLine>
        </>
      ),
    },
    {
      title: t('quotation.fields.sales_order'),
      dataIndex: 'sales_order_number',
      hidden: phone,
      render: (value: string | null) => value || '—',
    },
  ];

  return (
    <PageContainer
      extra={
        mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(paths.salesQuotationNew())} data-testid="new-quotation">
            {t('quotation.new')}
          </Button>
        ) : null
      }
    >
      <Card>
        <ServerTable<Quotation>
          endpoint={QUOTATIONS_URL}
          rowKey="id"
          columns={columns}
          listOptions={{ defaultOrdering: '-quotation_date' }}
          searchPlaceholder={t('quotation.search')}
          exportFileName="sales-quotations"
          onRowClick={(quotation) => void navigate(paths.salesQuotation(quotation.id))}
          filters={(params) => (
            <Flex gap="small" wrap>
              <Select
                allowClear
                style={{ minWidth: 180 }}
                aria-label={t('list.statusFilter')}
                placeholder={t('list.statusFilter')}
                value={typeof params.filters.status === 'string' ? params.filters.status : undefined}
                onChange={(value?: string) => params.setFilter('status', value ?? null)}
                options={QUOTATION_STATUSES.map((value) => ({ value, label: t(`quotation.status.${value}`) }))}
              />
              <RemoteSelect<CustomerOption>
                queryKey={CUSTOMERS_URL}
                search={searchCustomers}
                fetchOne={fetchCustomer}
                toOption={customerOption}
                allowClear
                style={{ minWidth: 220 }}
                aria-label={t('list.customerFilter')}
                placeholder={t('list.customerFilter')}
                value={idOf(params.filters.customer)}
                onChange={(value) => params.setFilter('customer', value === undefined ? null : String(value))}
              />
            </Flex>
          )}
        />
      </Card>
    </PageContainer>
  );
}
