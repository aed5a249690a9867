import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '@/api/errors';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { useFormatters } from '../lib/format';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import {
  CUSTOMERS_URL,
  PRODUCTS_URL,
  lineAmounts,
  orderPath,
  searchCustomers,
  searchProducts,
  useCreateOrder,
  type CustomerOption,
  type ProductOption,
} from '../api/sales';

interface Line {
  key: number;
  product?: number;
  quantity: string;
  unit_price: string;
  discount_percent: string;
  vat_rate: string;
  requested_date: Dayjs | null;
}

let nextKey = 1;
const emptyLine = (): Line => ({ key: nextKey++, quantity: '', unit_price: '', discount_percent: '0', vat_rate: '21', requested_date: null });
const customerOption = (c: CustomerOption) => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const productOption = (p: ProductOption) => ({ value: p.id, label: `${p.article_number} ${p.name}`, record: p });

/** /sales/sales-order-detail: the new-order page. Customer search, lines with product search (2
 * characters), prices and totals as you type; save as a draft or save and confirm (reserves stock). */
export default function SalesOrderCreatePage() {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const f = useFormatters();
  const create = useCreateOrder();
  const [customer, setCustomer] = useState<CustomerOption | undefined>();
  const [orderDate, setOrderDate] = useState<Dayjs>(dayjs());
  const [reference, setReference] = useState('');
  const [description, setDescription] = useState('');
  const [lines, setLines] = useState<Line[]>([emptyLine()]);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, unknown>>({});
  const currency = customer?.currency || 'EUR';

  const totals = useMemo(() => {
    let net = 0;
    let vat = 0;
    for (const line of lines) {
      const a = lineAmounts(line.quantity, line.unit_price, line.discount_percent, line.vat_rate);
      net += a.net;
      vat += a.vat;
    }
    return { net, vat, gross: net + vat };
  }, [lines]);

  const update = (key: number, patch: Partial<Line>) => setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const submit = (confirm: boolean) => {
    setError(null);
    setFieldErrors({});
    if (!customer) {
      setError(t('create.customerRequired'));
      return;
    }
    const complete = lines.filter((l) => l.product && Number(l.quantity) > 0 && l.unit_price !== '');
    if (complete.length === 0 || complete.length !== lines.length) {
      setError(t('create.linesRequired'));
      return;
    }
    create.mutate(
      {
        customer: customer.id,
        order_date: orderDate.format('YYYY-MM-DD'),
        customer_reference: reference,
        description,
        confirm,
        lines: complete.map((l) => ({
          product: l.product as number,
          quantity: l.quantity,
          unit_price: l.unit_price,
          discount_percent: l.discount_percent || '0',
          vat_rate: l.vat_rate || '0',
          requested_date: l.requested_date ? l.requested_date.format('YYYY-MM-DD') : null,
        })),
      },
      {
        onSuccess: (order) => {
          void message.success(t('create.created', { number: order.order_number }));
          void navigate(orderPath(order.id));
        },
        onError: (err) => {
          setError(errorText(err));
          if (isApiError(err) && err.data && typeof err.data === 'object') setFieldErrors(err.data as Record<string, unknown>);
        },
      },
    );
  };

  return (
    <PageContainer>
      <Card>
        <Form layout="vertical" onFinish={() => submit(false)}>
          <Flex gap="middle" wrap>
            <Form.Item label={t('fields.customer')} required htmlFor="sales-customer" style={{ minWidth: 320, flex: 2 }} validateStatus={fieldErrors.customer ? 'error' : undefined}>
              <RemoteSelect<CustomerOption>
                id="sales-customer"
                queryKey={CUSTOMERS_URL}
                search={searchCustomers}
                toOption={customerOption}
                placeholder={t('create.customerPlaceholder')}
                value={customer?.id}
                onChange={(_, record) => setCustomer(record)}
                data-testid="sales-customer"
              />
            </Form.Item>
            <Form.Item label={t('fields.order_date')} required htmlFor="sales-order-date">
              <DatePicker id="sales-order-date" value={orderDate} allowClear={false} onChange={(d) => d && setOrderDate(d)} />
            </Form.Item>
            <Form.Item label={t('fields.customer_reference')} htmlFor="sales-reference" style={{ flex: 1, minWidth: 180 }}>
              <Input id="sales-reference" value={reference} maxLength={100} onChange={(e) => setReference(e.target.value)} />
            </Form.Item>
          </Flex>
          <Form.Item label={t('fields.description')} htmlFor="sales-description">
            <Input id="sales-description" value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />
          </Form.Item>
          <Table<Line>
            rowKey="key"
            size="small"
            pagination={false}
            scroll={{ x: 900 }}
            dataSource={lines}
            columns={[
              {
                title: t('fields.product'),
                key: 'product',
                width: 300,
                render: (_, line, index) => (
                  <RemoteSelect<ProductOption>
                    queryKey={PRODUCTS_URL}
                    search={searchProducts}
                    toOption={productOption}
                    minChars={2}
                    style={{ width: '100%' }}
                    aria-label={`${t('fields.product')} ${index + 1}`}
                    placeholder={t('create.productPlaceholder')}
                    value={line.product}
                    onChange={(value, record) =>
                      update(line.key, {
                        product: value,
                        unit_price: line.unit_price || (record?.sales_price ?? ''),
                      })
                    }
                    data-testid={`line-product-${index}`}
                  />
                ),
              },
              ...(['quantity', 'unit_price', 'discount_percent', 'vat_rate'] as const).map((field) => ({
                title: t(`fields.${field}`),
                key: field,
                width: 120,
                render: (_: unknown, line: Line, index: number) => (
                  <InputNumber<string>
                    stringMode
                    min="0"
                    max={field === 'discount_percent' || field === 'vat_rate' ? '100' : undefined}
                    style={{ width: '100%' }}
                    aria-label={`${t(`fields.${field}`)} ${index + 1}`}
                    value={line[field]}
                    onChange={(value) => update(line.key, { [field]: value ?? '' })}
                    data-testid={`line-${field}-${index}`}
                  />
                ),
              })),
              {
                title: t('fields.requested_date'),
                key: 'requested_date',
                width: 150,
                render: (_, line, index) => (
                  <DatePicker
                    aria-label={`${t('fields.requested_date')} ${index + 1}`}
                    value={line.requested_date}
                    onChange={(d) => update(line.key, { requested_date: d })}
                  />
                ),
              },
              {
                title: t('fields.amount_net'),
                key: 'amount',
                align: 'right',
                width: 120,
                render: (_, line) => f.money(String(lineAmounts(line.quantity, line.unit_price, line.discount_percent, line.vat_rate).net), currency),
              },
              {
                title: '',
                key: 'remove',
                width: 50,
                render: (_, line, index) => (
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('create.removeLine', { n: index + 1 })}
                    disabled={lines.length === 1}
                    onClick={() => setLines((all) => all.filter((l) => l.key !== line.key))}
                  />
                ),
              },
            ]}
          />
          <Button icon={<PlusOutlined />} onClick={() => setLines((all) => [...all, emptyLine()])} style={{ marginTop: 8 }} data-testid="add-line">
            {t('create.addLine')}
          </Button>
          <Descriptions title={t('create.totals')} size="small" column={3} style={{ marginTop: 16 }}>
            <Descriptions.Item label={t('fields.total_net')}>
              <span data-testid="total-net">{f.money(totals.net.toFixed(2), currency)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('fields.total_vat')}>{f.money(totals.vat.toFixed(2), currency)}</Descriptions.Item>
            <Descriptions.Item label={t('fields.total_gross')}>
              <Typography.Text strong data-testid="total-gross">
                {f.money(totals.gross.toFixed(2), currency)}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="create-error" /> : null}
          <Flex gap="small">
            <Button htmlType="submit" loading={create.isPending} data-testid="save-draft">
              {t('create.saveDraft')}
            </Button>
            <Button type="primary" loading={create.isPending} onClick={() => submit(true)} data-testid="save-confirm">
              {t('create.saveConfirm')}
            </Button>
          </Flex>
        </Form>
      </Card>
    </PageContainer>
  );
}
