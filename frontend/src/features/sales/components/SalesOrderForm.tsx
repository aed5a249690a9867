import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '@/api/errors';
import type { FieldErrors } from '@/api/types';
import { RemoteSelect, type RemoteOption } from '@/shared/components/RemoteSelect';
import { useErrorText } from '@/shared/errors/errorText';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useFormatters } from '@/shared/utils/format';
import {
  CUSTOMERS_URL,
  PRODUCTS_URL,
  lineAmounts,
  orderPath,
  searchCustomers,
  searchProducts,
  useCreateOrder,
  useUpdateOrder,
  type CustomerOption,
  type OrderInput,
  type ProductOption,
  type SalesOrderDetail,
} from '../api/sales';

/** A line as the form holds it (pure UI: keys, dates as Dayjs, the product's label). */
export interface FormLine {
  key: number;
  /** The order line's id when editing: the server keeps the line (and its history) by it. */
  id?: number;
  product?: number;
  productOption?: RemoteOption<ProductOption>;
  quantity: string;
  unit_price: string;
  discount_percent: string;
  vat_rate: string;
  requested_date: Dayjs | null;
  /** Not edited here; sent back unchanged so a PUT does not clear it. */
  confirmed_date: string | null;
}

const NUMBER_FIELDS = ['quantity', 'unit_price', 'discount_percent', 'vat_rate'] as const;
/** Fields that show their own server errors; any other error goes to the alert above the buttons. */
const HEADER_FIELDS = ['customer', 'order_date', 'customer_reference', 'description'] as const;
const LINE_FIELDS = ['product', ...NUMBER_FIELDS, 'requested_date'] as const;

let nextKey = 1;
const emptyLine = (): FormLine => ({
  key: nextKey++,
  quantity: '',
  unit_price: '',
  discount_percent: '0',
  vat_rate: '21',
  requested_date: null,
  confirmed_date: null,
});
const customerOption = (c: CustomerOption): RemoteOption<CustomerOption> => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const productOption = (p: ProductOption): RemoteOption<ProductOption> => ({ value: p.id, label: `${p.article_number} ${p.name}`, record: p });

function linesOf(order: SalesOrderDetail): FormLine[] {
  return order.lines.map((line) => ({
    key: nextKey++,
    id: line.id,
    product: line.product,
    productOption: productOption({
      id: line.product,
      article_number: line.product_number,
      name: line.product_name,
      name_zh: line.product_name_zh,
      sales_price: null,
    }),
    quantity: line.quantity,
    unit_price: line.unit_price,
    discount_percent: line.discount_percent,
    vat_rate: line.vat_rate,
    requested_date: line.requested_date ? dayjs(line.requested_date) : null,
    confirmed_date: line.confirmed_date,
  }));
}

function customerOf(order: SalesOrderDetail): CustomerOption {
  return {
    id: order.customer_detail.id,
    number: order.customer_detail.number,
    name: order.customer_detail.name,
    currency: order.currency,
    payment_terms_days: order.payment_terms_days,
  };
}

/** "100.000" and "100" are the same amount. */
const decimal = (value: string) => (value.trim() === '' || !Number.isFinite(Number(value)) ? value : String(Number(value)));

/** What the user can change, as one comparable value: the form is dirty while it differs. */
function snapshot(customer: number | undefined, orderDate: Dayjs, reference: string, description: string, lines: FormLine[]) {
  return JSON.stringify([
    customer,
    orderDate.format('YYYY-MM-DD'),
    reference,
    description,
    lines.map((l) => [
      l.id,
      l.product,
      ...[l.quantity, l.unit_price, l.discount_percent, l.vat_rate].map(decimal),
      l.requested_date?.format('YYYY-MM-DD') ?? null,
    ]),
  ]);
}

/** Server field errors by dotted path (`customer`, `lines.1.quantity`); the rest as one text. */
function splitErrors(fieldErrors: FieldErrors | null, lineCount: number): { byField: FieldErrors; rest: string[] } {
  const byField: FieldErrors = {};
  const rest: string[] = [];
  const placed = new Set<string>(HEADER_FIELDS);
  for (let i = 0; i < lineCount; i += 1) for (const f of LINE_FIELDS) placed.add(`lines.${i}.${f}`);
  for (const [path, messages] of Object.entries(fieldErrors ?? {})) {
    if (placed.has(path)) byField[path] = messages;
    else rest.push(...messages);
  }
  return { byField, rest };
}

interface Props {
  /** The draft to edit; a new order when not given. */
  order?: SalesOrderDetail;
}

/**
 * The sales order form of the new-order page and of the edit page of a draft: customer search, lines
 * with product search (2 characters), prices and totals as the user types. A new order is saved as a
 * draft or confirmed at once; an edited draft is saved with PUT (lines kept by id) and the
 * `updated_at` it was read at, so a draft confirmed meanwhile is not overwritten (the server's 409
 * message shows). Server field errors show on their fields; leaving with unsaved changes asks first.
 */
export function SalesOrderForm({ order: given }: Props) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const f = useFormatters();
  const create = useCreateOrder();
  const update = useUpdateOrder();
  // the version the form opened with: its values and its `updated_at` go together
  const [order] = useState(given);
  const editing = order !== undefined;
  const [customer, setCustomer] = useState<CustomerOption | undefined>(() => (order ? customerOf(order) : undefined));
  const [orderDate, setOrderDate] = useState<Dayjs>(() => (order ? dayjs(order.order_date) : dayjs()));
  const [reference, setReference] = useState(order?.customer_reference ?? '');
  const [description, setDescription] = useState(order?.description ?? '');
  const [lines, setLines] = useState<FormLine[]>(() => (order ? linesOf(order) : [emptyLine()]));
  const [initial] = useState(() => snapshot(customer?.id, orderDate, reference, description, lines));
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const currency = customer?.currency || order?.currency || 'EUR';
  const pending = create.isPending || update.isPending;

  const dirty = snapshot(customer?.id, orderDate, reference, description, lines) !== initial;
  useUnsavedChangesGuard(dirty && leaveTo === null);
  // After the guard: once a save has released it, go to the order.
  useEffect(() => {
    if (leaveTo !== null) void navigate(leaveTo);
  }, [leaveTo, navigate]);

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

  const change = (key: number, patch: Partial<FormLine>) => setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const fieldError = (path: string): { validateStatus?: 'error'; help?: ReactNode } =>
    fieldErrors[path] ? { validateStatus: 'error', help: fieldErrors[path].join(' ') } : {};

  const submit = (confirm: boolean) => {
    setError(null);
    setFieldErrors({});
    if (!customer) {
      setError(t('create.customerRequired'));
      return;
    }
    if (lines.length === 0 || lines.some((l) => !l.product || !(Number(l.quantity) > 0) || l.unit_price === '')) {
      setError(t('create.linesRequired'));
      return;
    }
    const input: OrderInput = {
      customer: customer.id,
      order_date: orderDate.format('YYYY-MM-DD'),
      customer_reference: reference,
      description,
      confirm,
      lines: lines.map((l) => ({
        ...(l.id !== undefined ? { id: l.id } : {}),
        product: l.product as number,
        quantity: l.quantity,
        unit_price: l.unit_price,
        discount_percent: l.discount_percent || '0',
        vat_rate: l.vat_rate || '0',
        requested_date: l.requested_date ? l.requested_date.format('YYYY-MM-DD') : null,
        ...(l.confirmed_date ? { confirmed_date: l.confirmed_date } : {}),
      })),
    };
    const onError = (err: unknown) => {
      const { byField, rest } = splitErrors(isApiError(err) ? err.fieldErrors : null, lines.length);
      setFieldErrors(byField);
      setError(rest.length > 0 ? rest.join(' ') : errorText(err));
    };
    const onSuccess = (saved: SalesOrderDetail) => {
      void message.success(t(editing ? 'edit.saved' : 'create.created', { number: saved.order_number }));
      setLeaveTo(orderPath(saved.id));
    };
    if (order) update.mutate({ ...input, confirm: false, id: order.id, unchanged_since: order.updated_at }, { onSuccess, onError });
    else create.mutate(input, { onSuccess, onError });
  };

  return (
    <Card>
      <Form layout="vertical" onFinish={() => submit(false)}>
        <Flex gap="middle" wrap>
          <Form.Item label={t('fields.customer')} required htmlFor="sales-customer" style={{ minWidth: 'min(320px, 100%)', flex: 2 }} {...fieldError('customer')}>
            <RemoteSelect<CustomerOption>
              id="sales-customer"
              queryKey={CUSTOMERS_URL}
              search={searchCustomers}
              toOption={customerOption}
              initial={order ? [customerOption(customerOf(order))] : []}
              placeholder={t('create.customerPlaceholder')}
              value={customer?.id}
              onChange={(_, record) => setCustomer(record)}
              data-testid="sales-customer"
            />
          </Form.Item>
          <Form.Item label={t('fields.order_date')} required htmlFor="sales-order-date" {...fieldError('order_date')}>
            <DatePicker id="sales-order-date" value={orderDate} allowClear={false} onChange={(d) => d && setOrderDate(d)} />
          </Form.Item>
          <Form.Item label={t('fields.customer_reference')} htmlFor="sales-reference" style={{ flex: 1, minWidth: 180 }} {...fieldError('customer_reference')}>
            <Input id="sales-reference" value={reference} maxLength={100} onChange={(e) => setReference(e.target.value)} data-testid="sales-reference" />
          </Form.Item>
        </Flex>
        <Form.Item label={t('fields.description')} htmlFor="sales-description" {...fieldError('description')}>
          <Input id="sales-description" value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />
        </Form.Item>
        <Table<FormLine>
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
                <Form.Item style={{ marginBottom: 0 }} {...fieldError(`lines.${index}.product`)}>
                  <RemoteSelect<ProductOption>
                    queryKey={PRODUCTS_URL}
                    search={searchProducts}
                    toOption={productOption}
                    initial={line.productOption ? [line.productOption] : []}
                    minChars={2}
                    style={{ width: '100%' }}
                    aria-label={`${t('fields.product')} ${index + 1}`}
                    placeholder={t('create.productPlaceholder')}
                    value={line.product}
                    onChange={(value, record) =>
                      change(line.key, {
                        product: value,
                        productOption: record ? productOption(record) : undefined,
                        unit_price: line.unit_price || (record?.sales_price ?? ''),
                      })
                    }
                    data-testid={`line-product-${index}`}
                  />
                </Form.Item>
              ),
            },
            ...NUMBER_FIELDS.map((field) => ({
              title: t(`fields.${field}`),
              key: field,
              width: 120,
              render: (_: unknown, line: FormLine, index: number) => (
                <Form.Item style={{ marginBottom: 0 }} {...fieldError(`lines.${index}.${field}`)}>
                  <InputNumber<string>
                    stringMode
                    min="0"
                    max={field === 'discount_percent' || field === 'vat_rate' ? '100' : undefined}
                    style={{ width: '100%' }}
                    aria-label={`${t(`fields.${field}`)} ${index + 1}`}
                    value={line[field]}
                    onChange={(value) => change(line.key, { [field]: value ?? '' })}
                    data-testid={`line-${field}-${index}`}
                  />
                </Form.Item>
              ),
            })),
            {
              title: t('fields.requested_date'),
              key: 'requested_date',
              width: 150,
              render: (_, line, index) => (
                <Form.Item style={{ marginBottom: 0 }} {...fieldError(`lines.${index}.requested_date`)}>
                  <DatePicker
                    aria-label={`${t('fields.requested_date')} ${index + 1}`}
                    value={line.requested_date}
                    onChange={(d) => change(line.key, { requested_date: d })}
                    data-testid={`line-requested_date-${index}`}
                  />
                </Form.Item>
              ),
            },
            {
              title: t('fields.amount_net'),
              key: 'amount',
              align: 'right',
              width: 120,
              render: (_, line, index) => (
                <span data-testid={`line-amount-${index}`}>
                  {f.money(String(lineAmounts(line.quantity, line.unit_price, line.discount_percent, line.vat_rate).net), currency)}
                </span>
              ),
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
        <Descriptions title={t('create.totals')} size="small" column={{ xs: 1, sm: 3 }} style={{ marginTop: 16 }}>
          <Descriptions.Item label={t('fields.total_net')}>
            <span data-testid="total-net">{f.money(totals.net.toFixed(2), currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.total_vat')}>
            <span data-testid="total-vat">{f.money(totals.vat.toFixed(2), currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.total_gross')}>
            <Typography.Text strong data-testid="total-gross">
              {f.money(totals.gross.toFixed(2), currency)}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="create-error" role="alert" /> : null}
        <Flex gap="small" wrap>
          {editing ? (
            <>
              <Button type="primary" htmlType="submit" loading={pending} data-testid="save-order">
                {t('edit.save')}
              </Button>
              <Button onClick={() => void navigate(orderPath(order.id))} data-testid="cancel-edit">
                {t('edit.cancel')}
              </Button>
            </>
          ) : (
            <>
              <Button htmlType="submit" loading={pending} data-testid="save-draft">
                {t('create.saveDraft')}
              </Button>
              <Button type="primary" loading={pending} onClick={() => submit(true)} data-testid="save-confirm">
                {t('create.saveConfirm')}
              </Button>
            </>
          )}
        </Flex>
      </Form>
    </Card>
  );
}
