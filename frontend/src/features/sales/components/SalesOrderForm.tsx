import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Collapse, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
import type { FormListFieldData } from 'antd/es/form/FormList';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RemoteSelect, type RemoteOption } from '@/shared/components/RemoteSelect';
import { useErrorText } from '@/shared/errors/errorText';
import { applyApiErrorToForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { usePhone } from '@/shared/hooks/usePhone';
import { canonicalDecimal, compareDecimals } from '@/shared/utils/decimal';
import { useFormatters } from '@/shared/utils/format';
import { isApiError } from '@/api/errors';
import styles from './SalesOrderForm.module.css';
import {
  CUSTOMERS_URL,
  OWNERS_URL,
  PRODUCTS_URL,
  SHIP_TO_FIELDS,
  customerDefaults,
  searchCustomers,
  searchOwners,
  searchProducts,
  useCreateOrder,
  useUpdateOrder,
  useVatTreatment,
  type CustomerOption,
  type OrderInput,
  type OwnerOption,
  type ProductOption,
  type SalesOrderDetail,
  type ShipTo,
} from '../api/sales';
import { lineAmounts, orderTotals } from '../lib/amounts';
import { paths } from '@/shared/routing/paths';

/** A line as the form holds it: decimals as strings, dates as Dayjs. */
export interface LineValues {
  /** The order line's id when editing: the server keeps the line (and its history) by it. */
  id?: number;
  product?: number;
  quantity?: string | null;
  unit_price?: string | null;
  discount_percent?: string | null;
  vat_rate?: string | null;
  /** The user typed the VAT rate: the server's proposal no longer replaces it (not sent). */
  vatTyped?: boolean;
  requested_date?: Dayjs | null;
  confirmed_date?: Dayjs | null;
}

/** The header fields of "More details": prefilled with the customer's defaults, changeable. */
interface Header extends ShipTo {
  currency: string;
  /** null: left empty (the customer's terms apply). */
  payment_terms_days: number | null;
  /** null: nobody chosen (a new order gets its creator). */
  owner: number | null;
}

interface FormValues extends Header {
  customer?: number;
  order_date: Dayjs;
  customer_reference: string;
  description: string;
  lines: LineValues[];
}

const NUMBER_FIELDS = ['quantity', 'unit_price', 'discount_percent', 'vat_rate'] as const;
/** Fields of the folded "More details": a server error on one of them opens it. */
const DETAIL_FIELDS = ['currency', 'payment_terms_days', 'owner', ...SHIP_TO_FIELDS] as const;
const CURRENCY = /^[A-Z]{3}$/;
const DATE = 'YYYY-MM-DD';
/** The server's lengths of the ship-to fields. */
const SHIP_TO_MAX = { ship_to_name: 200, ship_to_street: 200, ship_to_post_code: 20, ship_to_city: 100, ship_to_country: 2 } as const;

const emptyHeader = (): Header => ({
  currency: '',
  payment_terms_days: null,
  owner: null,
  ship_to_name: '',
  ship_to_street: '',
  ship_to_post_code: '',
  ship_to_city: '',
  ship_to_country: '',
});
function headerOf(order: SalesOrderDetail): Header {
  return {
    currency: order.currency,
    payment_terms_days: order.payment_terms_days,
    owner: order.owner ?? null,
    ship_to_name: order.ship_to_name,
    ship_to_street: order.ship_to_street,
    ship_to_post_code: order.ship_to_post_code,
    ship_to_city: order.ship_to_city,
    ship_to_country: order.ship_to_country,
  };
}
const emptyLine = (vatRate = ''): LineValues => ({
  quantity: '',
  unit_price: '',
  discount_percent: '0',
  vat_rate: vatRate,
  requested_date: null,
  confirmed_date: null,
});
const ownerOption = (o: OwnerOption): RemoteOption<OwnerOption> => ({ value: o.id, label: o.name || o.username, record: o });
const customerOption = (c: CustomerOption): RemoteOption<CustomerOption> => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const productOption = (p: ProductOption): RemoteOption<ProductOption> => ({ value: p.id, label: `${p.article_number} ${p.name}`, record: p });

function customerOf(order: SalesOrderDetail): CustomerOption {
  return {
    id: order.customer_detail.id,
    number: order.customer_detail.number,
    name: order.customer_detail.name,
    currency: order.currency,
    payment_terms_days: order.payment_terms_days,
  };
}

function initialValues(order: SalesOrderDetail | undefined): FormValues {
  if (!order) return { order_date: dayjs(), customer_reference: '', description: '', ...emptyHeader(), lines: [emptyLine()] };
  return {
    customer: order.customer,
    order_date: dayjs(order.order_date),
    customer_reference: order.customer_reference ?? '',
    description: order.description ?? '',
    ...headerOf(order),
    lines: order.lines.map((line) => ({
      id: line.id,
      product: line.product,
      quantity: line.quantity,
      unit_price: line.unit_price,
      discount_percent: line.discount_percent,
      vat_rate: line.vat_rate,
      requested_date: line.requested_date ? dayjs(line.requested_date) : null,
      confirmed_date: line.confirmed_date ? dayjs(line.confirmed_date) : null,
    })),
  };
}

const dateText = (value: Dayjs | null | undefined) => (value ? value.format(DATE) : null);

/** What the user can change, as one comparable value: the form is dirty while it differs ("100.000" is "100"). */
function snapshot(values: Partial<FormValues>): string {
  return JSON.stringify([
    values.customer,
    dateText(values.order_date),
    values.customer_reference ?? '',
    values.description ?? '',
    DETAIL_FIELDS.map((name) => values[name] ?? null),
    (values.lines ?? []).map((l) => [
      l?.id,
      l?.product,
      ...NUMBER_FIELDS.map((name) => canonicalDecimal(l?.[name])),
      dateText(l?.requested_date),
      dateText(l?.confirmed_date),
    ]),
  ]);
}

/** A line the server accepts: a product, a quantity above 0 and a price. */
const lineComplete = (l: LineValues | undefined) =>
  Boolean(l?.product) && l?.quantity !== '' && compareDecimals(l?.quantity, '0') > 0 && (l?.unit_price ?? '') !== '';

/**
 * The header fields to send. A new order sends only what the user changed from the customer's defaults
 * (`base`: the server fills in the rest, and the creator as owner); an edited draft sends them all, so the
 * PUT keeps them. An emptied currency or terms field is not sent (the current value stays).
 */
function headerInput(values: FormValues, base: Header, editing: boolean): Partial<OrderInput> {
  const header: Header = { ...emptyHeader(), ...values, owner: values.owner ?? null, payment_terms_days: values.payment_terms_days ?? null };
  const input: Partial<OrderInput> = {};
  const send = <K extends keyof Header>(name: K) => editing || header[name] !== base[name];
  if (header.currency !== '' && send('currency')) input.currency = header.currency;
  if (header.payment_terms_days !== null && send('payment_terms_days')) input.payment_terms_days = header.payment_terms_days;
  if (send('owner')) input.owner = header.owner;
  for (const name of SHIP_TO_FIELDS) if (send(name)) input[name] = header[name] ?? '';
  return input;
}

function toInput(values: FormValues, base: Header, editing: boolean, confirm: boolean): OrderInput {
  return {
    customer: values.customer as number,
    order_date: (values.order_date ?? dayjs()).format(DATE),
    customer_reference: values.customer_reference ?? '',
    description: values.description ?? '',
    ...headerInput(values, base, editing),
    confirm,
    lines: values.lines.map((l) => ({
      ...(l.id !== undefined ? { id: l.id } : {}),
      product: l.product as number,
      quantity: String(l.quantity ?? ''),
      unit_price: String(l.unit_price ?? ''),
      discount_percent: l.discount_percent || '0',
      vat_rate: l.vat_rate || '0',
      requested_date: dateText(l.requested_date),
      confirmed_date: dateText(l.confirmed_date),
    })),
  };
}

interface Props {
  /** The draft to edit; a new order when not given. */
  order?: SalesOrderDetail;
}

/**
 * The sales order form of the new-order page and of the edit page of a draft (an antd Form with a
 * Form.List of lines, as the purchase order form): customer search, lines with product search
 * (2 characters), requested and confirmed dates, prices and totals as the user types (exact decimals,
 * rounded as the server rounds), and a folded "More details" section (currency, terms, owner, ship-to
 * address; filled in from the chosen customer as the server would). A new order is saved as a draft or
 * confirmed at once; an edited draft is saved with PUT (lines kept by id) and the `updated_at` it was
 * read at, so a draft confirmed meanwhile is not overwritten (the server's 409 message shows). Server
 * field errors show on their fields; leaving with unsaved changes asks first.
 */
export function SalesOrderForm({ order: given }: Props) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const f = useFormatters();
  const create = useCreateOrder();
  const update = useUpdateOrder();
  const [form] = Form.useForm<FormValues>();
  // the version the form opened with: its values and its `updated_at` go together
  const [order] = useState(given);
  const editing = order !== undefined;
  const initial = useMemo(() => initialValues(order), [order]);
  const initialSnapshot = useMemo(() => snapshot(initial), [initial]);
  // what the server sets when a field is not sent: the order's values, or the chosen customer's defaults
  const [base, setBase] = useState<Header>(() => (order ? headerOf(order) : emptyHeader()));
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  /** Which button submitted: "Save and confirm" sets it before submitting. */
  const confirmRef = useRef(false);
  const pending = create.isPending || update.isPending;

  /** Below antd's `sm` breakpoint the lines are cards: a table of inputs would scroll sideways. */
  const phone = usePhone();

  // preserve: the lines' ids and typed-VAT marks are not fields
  const watched = Form.useWatch([], { form, preserve: true }) as Partial<FormValues> | undefined;
  const values: Partial<FormValues> = watched ?? initial;
  const lines = values.lines ?? initial.lines;
  const headerCurrency = values.currency ?? '';
  const currency = CURRENCY.test(headerCurrency) ? headerCurrency : base.currency || order?.currency || 'EUR';
  const totals = orderTotals(lines.map((l) => l ?? {}));

  // set as the user changes a value (the watched values follow a moment later)
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesGuard(dirty && leaveTo === null);
  // After the guard: once a save has released it, go to the order.
  useEffect(() => {
    if (leaveTo !== null) void navigate(leaveTo);
  }, [leaveTo, navigate]);

  // The VAT the server proposes (domestic, intra-EU business, export, consumer elsewhere): lines that are
  // new and whose rate nobody typed follow it; lines already saved keep theirs.
  const vat = useVatTreatment(values.customer, values.ship_to_country ?? '');
  const proposedRate = vat.data?.rate ?? null;
  useEffect(() => {
    if (proposedRate === null) return;
    const rate = canonicalDecimal(proposedRate);
    const current = (form.getFieldValue('lines') ?? []) as LineValues[];
    if (current.some((l) => l.id === undefined && !l.vatTyped && l.vat_rate !== rate)) {
      form.setFieldValue(
        'lines',
        current.map((l) => (l.id === undefined && !l.vatTyped ? { ...l, vat_rate: rate } : l)),
      );
    }
  }, [proposedRate, form]);

  const productInitial = useMemo(
    () =>
      (order?.lines ?? []).map((line) =>
        productOption({ id: line.product, article_number: line.product_number, name: line.product_name, name_zh: line.product_name_zh, sales_price: null }),
      ),
    [order],
  );

  /** Choosing a customer takes its address, currency and terms (as the server would); the owner stays. */
  const chooseCustomer = (record: CustomerOption | undefined) => {
    if (!record) return;
    const defaults = customerDefaults(record);
    form.setFieldsValue(defaults);
    setBase((b) => ({ ...b, ...defaults }));
  };
  const chooseProduct = (name: number, record: ProductOption | undefined) => {
    const price = form.getFieldValue(['lines', name, 'unit_price']) as string | null | undefined;
    if (!price && record?.sales_price) form.setFieldValue(['lines', name, 'unit_price'], record.sales_price);
  };

  const onFinish = async () => {
    const confirm = !editing && confirmRef.current;
    confirmRef.current = false;
    setError(null);
    // the whole store: the lines' ids are not fields (the submitted values hold only the fields)
    const input = toInput({ ...initial, ...(form.getFieldsValue(true) as FormValues) }, base, editing, confirm);
    try {
      const saved = order
        ? await update.mutateAsync({ ...input, confirm: false, id: order.id, unchanged_since: order.updated_at })
        : await create.mutateAsync(input);
      void message.success(t(editing ? 'edit.saved' : 'create.created', { number: saved.order_number }));
      setLeaveTo(paths.salesOrder(saved.id));
    } catch (err) {
      const rest = applyApiErrorToForm(form, err, errorText);
      const fieldErrors = isApiError(err) ? (err.fieldErrors ?? {}) : {};
      if (DETAIL_FIELDS.some((name) => fieldErrors[name])) setDetailsOpen(true);
      setError(rest ?? errorText(err));
    }
  };
  const submit = (confirm: boolean) => {
    confirmRef.current = confirm;
    form.submit();
  };

  /** A line's inputs, laid out as table cells, or on a phone as a card per line. */
  const cells = {
    product: (field: FormListFieldData) => (
      <Form.Item name={[field.name, 'product']} style={{ marginBottom: 0 }}>
        <RemoteSelect<ProductOption>
          queryKey={PRODUCTS_URL}
          search={searchProducts}
          toOption={productOption}
          initial={productInitial}
          minChars={2}
          style={{ width: '100%' }}
          aria-label={`${t('fields.product')} ${field.name + 1}`}
          placeholder={t('create.productPlaceholder')}
          onChange={(_value, record) => chooseProduct(field.name, record)}
          data-testid={`line-product-${field.name}`}
        />
      </Form.Item>
    ),
    number: (name: (typeof NUMBER_FIELDS)[number]) => (field: FormListFieldData) => (
      <Form.Item name={[field.name, name]} style={{ marginBottom: 0 }}>
        <InputNumber<string>
          stringMode
          min="0"
          max={name === 'discount_percent' || name === 'vat_rate' ? '100' : undefined}
          style={{ width: '100%' }}
          inputMode="decimal"
          aria-label={`${t(`fields.${name}`)} ${field.name + 1}`}
          onChange={name === 'vat_rate' ? () => form.setFieldValue(['lines', field.name, 'vatTyped'], true) : undefined}
          data-testid={`line-${name}-${field.name}`}
        />
      </Form.Item>
    ),
    date: (name: 'requested_date' | 'confirmed_date') => (field: FormListFieldData) => (
      <Form.Item name={[field.name, name]} style={{ marginBottom: 0 }}>
        <DatePicker aria-label={`${t(`fields.${name}`)} ${field.name + 1}`} style={{ width: '100%' }} data-testid={`line-${name}-${field.name}`} />
      </Form.Item>
    ),
    amount: (field: FormListFieldData) => {
      const line = lines[field.name];
      return (
        <span data-testid={`line-amount-${field.name}`}>
          {f.money(lineAmounts(line?.quantity, line?.unit_price, line?.discount_percent, line?.vat_rate).net, currency)}
        </span>
      );
    },
    remove: (field: FormListFieldData, remove: (index: number) => void, count: number) => (
      <Button
        type="text"
        icon={<DeleteOutlined />}
        aria-label={t('create.removeLine', { n: field.name + 1 })}
        disabled={count === 1}
        onClick={() => remove(field.name)}
      />
    ),
  };

  const lineEditor = (fields: FormListFieldData[], remove: (index: number) => void) =>
    phone ? (
      <Flex vertical gap="small" data-testid="line-cards">
        {fields.map((field) => (
          <div key={field.key} className={styles.lineCard} data-testid={`line-card-${field.name}`}>
            <Flex justify="space-between" align="center">
              <Typography.Text strong>{t('create.lineN', { n: field.name + 1 })}</Typography.Text>
              {cells.remove(field, remove, fields.length)}
            </Flex>
            <Form.Item label={t('fields.product')} style={{ marginBottom: 8 }}>
              {cells.product(field)}
            </Form.Item>
            <div className={styles.lineGrid}>
              {NUMBER_FIELDS.map((name) => (
                <Form.Item key={name} label={t(`fields.${name}`)} style={{ marginBottom: 8 }}>
                  {cells.number(name)(field)}
                </Form.Item>
              ))}
              <Form.Item label={t('fields.requested_date')} style={{ marginBottom: 8 }}>
                {cells.date('requested_date')(field)}
              </Form.Item>
              <Form.Item label={t('fields.confirmed_date')} style={{ marginBottom: 8 }}>
                {cells.date('confirmed_date')(field)}
              </Form.Item>
            </div>
            <Flex justify="space-between">
              <Typography.Text type="secondary">{t('fields.amount_net')}</Typography.Text>
              {cells.amount(field)}
            </Flex>
          </div>
        ))}
      </Flex>
    ) : (
      <Table<FormListFieldData>
        rowKey="key"
        size="small"
        pagination={false}
        scroll={{ x: 1050 }}
        dataSource={fields}
        columns={[
          { title: t('fields.product'), key: 'product', width: 300, render: (_, field) => cells.product(field) },
          ...NUMBER_FIELDS.map((name) => ({
            title: t(`fields.${name}`),
            key: name,
            width: 120,
            render: (_: unknown, field: FormListFieldData) => cells.number(name)(field),
          })),
          { title: t('fields.requested_date'), key: 'requested_date', width: 150, render: (_, field) => cells.date('requested_date')(field) },
          { title: t('fields.confirmed_date'), key: 'confirmed_date', width: 150, render: (_, field) => cells.date('confirmed_date')(field) },
          { title: t('fields.amount_net'), key: 'amount', align: 'right', width: 120, render: (_, field) => cells.amount(field) },
          { title: '', key: 'remove', width: 50, render: (_, field) => cells.remove(field, remove, fields.length) },
        ]}
      />
    );

  return (
    <Card>
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={() => void onFinish()}
        onFinishFailed={() => {
          confirmRef.current = false;
        }}
        onValuesChange={() => {
          setDirty(snapshot(form.getFieldsValue(true) as FormValues) !== initialSnapshot);
          // a shown "lines" problem follows the corrections
          if (form.getFieldError('lines').length > 0) void form.validateFields([['lines']]).catch(() => undefined);
        }}
      >
        <Flex gap="middle" wrap>
          <Form.Item
            name="customer"
            label={t('fields.customer')}
            htmlFor="sales-customer"
            rules={[{ required: true, message: t('create.customerRequired') }]}
            style={{ minWidth: 'min(320px, 100%)', flex: 2 }}
          >
            <RemoteSelect<CustomerOption>
              id="sales-customer"
              queryKey={CUSTOMERS_URL}
              search={searchCustomers}
              toOption={customerOption}
              initial={order ? [customerOption(customerOf(order))] : []}
              placeholder={t('create.customerPlaceholder')}
              onChange={(_, record) => chooseCustomer(record)}
              data-testid="sales-customer"
            />
          </Form.Item>
          <Form.Item name="order_date" label={t('fields.order_date')} required htmlFor="sales-order-date">
            <DatePicker id="sales-order-date" allowClear={false} />
          </Form.Item>
          <Form.Item name="customer_reference" label={t('fields.customer_reference')} htmlFor="sales-reference" style={{ flex: 1, minWidth: 180 }}>
            <Input id="sales-reference" maxLength={100} data-testid="sales-reference" />
          </Form.Item>
        </Flex>
        <Form.Item name="description" label={t('fields.description')} htmlFor="sales-description">
          <Input id="sales-description" maxLength={1000} />
        </Form.Item>
        <Collapse
          size="small"
          style={{ marginBottom: 16 }}
          activeKey={detailsOpen ? ['details'] : []}
          onChange={(keys) => setDetailsOpen(keys.includes('details'))}
          items={[
            {
              key: 'details',
              label: t('create.moreDetails'),
              extra: (
                <Typography.Text type="secondary" data-testid="sales-details-summary">
                  {[
                    headerCurrency,
                    values.payment_terms_days !== null && values.payment_terms_days !== undefined
                      ? t('create.termsDays', { count: values.payment_terms_days })
                      : '',
                    [values.ship_to_street, values.ship_to_city].filter(Boolean).join(', '),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography.Text>
              ),
              forceRender: true,
              children: (
                <>
                  <Flex gap="middle" wrap>
                    <Form.Item
                      name="currency"
                      label={t('fields.currency')}
                      htmlFor="sales-currency"
                      normalize={(value: string) => value.toUpperCase()}
                      style={{ width: 120 }}
                    >
                      <Input id="sales-currency" maxLength={3} data-testid="sales-currency" />
                    </Form.Item>
                    <Form.Item name="payment_terms_days" label={t('fields.payment_terms_days')} htmlFor="sales-payment-terms" style={{ width: 180 }}>
                      <InputNumber<number>
                        id="sales-payment-terms"
                        min={0}
                        max={365}
                        precision={0}
                        style={{ width: '100%' }}
                        data-testid="sales-payment-terms"
                      />
                    </Form.Item>
                    <Form.Item
                      name="owner"
                      label={t('fields.owner')}
                      htmlFor="sales-owner"
                      tooltip={t('create.ownerHint')}
                      normalize={(value: number | undefined) => value ?? null}
                      style={{ minWidth: 'min(260px, 100%)', flex: 1 }}
                    >
                      <RemoteSelect<OwnerOption>
                        id="sales-owner"
                        queryKey={OWNERS_URL}
                        search={searchOwners}
                        toOption={ownerOption}
                        initial={order?.owner ? [ownerOption({ id: order.owner, username: order.owner_name, name: order.owner_name })] : []}
                        allowClear
                        placeholder={t(editing ? 'create.ownerPlaceholder' : 'create.ownerDefault')}
                        data-testid="sales-owner"
                      />
                    </Form.Item>
                  </Flex>
                  <Typography.Text strong>{t('fields.ship_to')}</Typography.Text>
                  <Flex gap="middle" wrap style={{ marginTop: 8 }}>
                    {SHIP_TO_FIELDS.map((name) => (
                      <Form.Item
                        key={name}
                        name={name}
                        label={t(`fields.${name}`)}
                        htmlFor={`sales-${name}`}
                        normalize={name === 'ship_to_country' ? (value: string) => value.toUpperCase() : undefined}
                        style={{ flex: name === 'ship_to_name' || name === 'ship_to_street' ? 2 : 1, minWidth: name === 'ship_to_country' ? 90 : 160 }}
                      >
                        <Input id={`sales-${name}`} maxLength={SHIP_TO_MAX[name]} data-testid={`sales-${name}`} />
                      </Form.Item>
                    ))}
                  </Flex>
                </>
              ),
            },
          ]}
        />
        <Form.List
          name="lines"
          rules={[
            {
              validator: (_: unknown, value: LineValues[] | undefined) =>
                !value || value.length === 0 || !value.every(lineComplete)
                  ? Promise.reject(new Error(t('create.linesRequired')))
                  : Promise.resolve(),
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {lineEditor(fields, remove)}
              <Form.ErrorList errors={errors} />
              <Button
                icon={<PlusOutlined />}
                onClick={() => add(emptyLine(proposedRate === null ? '' : canonicalDecimal(proposedRate)))}
                style={{ marginTop: 8 }}
                data-testid="add-line"
              >
                {t('create.addLine')}
              </Button>
            </>
          )}
        </Form.List>
        <Descriptions title={t('create.totals')} size="small" column={{ xs: 1, sm: 3 }} style={{ marginTop: 16, marginBottom: 12 }}>
          <Descriptions.Item label={t('fields.total_net')}>
            <span data-testid="total-net">{f.money(totals.net, currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.total_vat')}>
            <span data-testid="total-vat">{f.money(totals.vat, currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.total_gross')}>
            <Typography.Text strong data-testid="total-gross">
              {f.money(totals.gross, currency)}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
        {vat.data ? (
          <Alert
            type={vat.data.case === 'distance_sale' && !vat.data.customer_vat_number_valid ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="vat-treatment"
            title={t(`vat.case.${vat.data.case}`, { rate: vat.data.rate === null ? '–' : f.qty(vat.data.rate) })}
            description={
              <>
                {vat.data.mention ? <div>{vat.data.mention}</div> : null}
                {vat.data.case === 'distance_sale' && !vat.data.customer_vat_number_valid ? <div>{t('vat.noValidNumber')}</div> : null}
                <Typography.Text type="secondary">{t('vat.ratesAsOf', { date: f.date(vat.data.rates_as_of) })}</Typography.Text>
              </>
            }
          />
        ) : null}
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="create-error" role="alert" /> : null}
        <Flex gap="small" wrap>
          {editing ? (
            <>
              <Button type="primary" htmlType="submit" loading={pending} data-testid="save-order">
                {t('edit.save')}
              </Button>
              <Button onClick={() => void navigate(paths.salesOrder(order.id))} data-testid="cancel-edit">
                {t('edit.cancel')}
              </Button>
            </>
          ) : (
            <>
              <Button
                htmlType="submit"
                loading={pending}
                onClick={() => {
                  confirmRef.current = false;
                }}
                data-testid="save-draft"
              >
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
