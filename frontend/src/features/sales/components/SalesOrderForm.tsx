import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Collapse, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
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
import { usePhone } from '@/shared/hooks/usePhone';
import styles from './SalesOrderForm.module.css';
import {
  CUSTOMERS_URL,
  OWNERS_URL,
  PRODUCTS_URL,
  SHIP_TO_FIELDS,
  customerDefaults,
  lineAmounts,
  orderPath,
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
  type ShipTo,
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
  /** The user typed the VAT rate: the server's proposal no longer replaces it. */
  vatTyped?: boolean;
  requested_date: Dayjs | null;
  confirmed_date: Dayjs | null;
}

/** The header fields of "More details": prefilled with the customer's defaults, changeable. */
interface Header extends ShipTo {
  currency: string;
  /** null: left empty (the customer's terms apply). */
  payment_terms_days: number | null;
  /** null: nobody chosen (a new order gets its creator). */
  owner: number | null;
}

const NUMBER_FIELDS = ['quantity', 'unit_price', 'discount_percent', 'vat_rate'] as const;
/** Fields that show their own server errors; any other error goes to the alert above the buttons. */
const DETAIL_FIELDS = ['currency', 'payment_terms_days', 'owner', ...SHIP_TO_FIELDS] as const;
const HEADER_FIELDS = ['customer', 'order_date', 'customer_reference', 'description', ...DETAIL_FIELDS] as const;
const LINE_FIELDS = ['product', ...NUMBER_FIELDS, 'requested_date', 'confirmed_date'] as const;
const CURRENCY = /^[A-Z]{3}$/;
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
const ownerOption = (o: OwnerOption): RemoteOption<OwnerOption> => ({ value: o.id, label: o.name || o.username, record: o });

let nextKey = 1;
const emptyLine = (vatRate = ''): FormLine => ({
  key: nextKey++,
  quantity: '',
  unit_price: '',
  discount_percent: '0',
  vat_rate: vatRate,
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
    confirmed_date: line.confirmed_date ? dayjs(line.confirmed_date) : null,
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
function snapshot(customer: number | undefined, orderDate: Dayjs, reference: string, description: string, header: Header, lines: FormLine[]) {
  return JSON.stringify([
    customer,
    orderDate.format('YYYY-MM-DD'),
    reference,
    description,
    DETAIL_FIELDS.map((name) => header[name]),
    lines.map((l) => [
      l.id,
      l.product,
      ...[l.quantity, l.unit_price, l.discount_percent, l.vat_rate].map(decimal),
      l.requested_date?.format('YYYY-MM-DD') ?? null,
      l.confirmed_date?.format('YYYY-MM-DD') ?? null,
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
 * with product search (2 characters), requested and confirmed dates, prices and totals as the user types,
 * and a folded "More details" section (currency, terms, owner, ship-to address; filled in from the
 * chosen customer as the server would). A new order is saved as a
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
  const [header, setHeader] = useState<Header>(() => (order ? headerOf(order) : emptyHeader()));
  // what the server sets when a field is not sent: the order's values, or the chosen customer's defaults
  const [base, setBase] = useState<Header>(header);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [initial] = useState(() => snapshot(customer?.id, orderDate, reference, description, header, lines));
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const currency = CURRENCY.test(header.currency) ? header.currency : customer?.currency || order?.currency || 'EUR';
  const pending = create.isPending || update.isPending;

  /** Below antd's `sm` breakpoint the lines are cards: a table of inputs would scroll sideways. */
  const phone = usePhone();
  const dirty = snapshot(customer?.id, orderDate, reference, description, header, lines) !== initial;
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

  // The VAT the server proposes (domestic, intra-EU business, export, consumer elsewhere): lines that are
  // new and whose rate nobody typed follow it; lines already saved keep theirs.
  const vat = useVatTreatment(customer?.id, header.ship_to_country);
  const proposedRate = vat.data?.rate ?? null;
  // (adjusted while rendering, as React advises for state that follows a value: no effect, no extra pass)
  const [appliedRate, setAppliedRate] = useState<string | null>(null);
  if (proposedRate !== null && proposedRate !== appliedRate) {
    setAppliedRate(proposedRate);
    const rate = String(Number(proposedRate));
    setLines((all) => all.map((l) => (l.id === undefined && !l.vatTyped ? { ...l, vat_rate: rate } : l)));
  }

  const changeHeader = (patch: Partial<Header>) => setHeader((h) => ({ ...h, ...patch }));
  /** Choosing a customer takes its address, currency and terms (as the server would); the owner stays. */
  const chooseCustomer = (record: CustomerOption | undefined) => {
    setCustomer(record);
    if (!record) return;
    const defaults = customerDefaults(record);
    setHeader((h) => ({ ...h, ...defaults }));
    setBase((b) => ({ ...b, ...defaults }));
  };
  /** The header fields to send. A new order sends only what the user changed from the customer's defaults
   * (the server fills in the rest, and the creator as owner); an edited draft sends them all, so the
   * PUT keeps them. An emptied currency or terms field is not sent (the current value stays). */
  const headerInput = (): Partial<OrderInput> => {
    const input: Partial<OrderInput> = {};
    const send = <K extends keyof Header>(name: K) => editing || header[name] !== base[name];
    if (header.currency !== '' && send('currency')) input.currency = header.currency;
    if (header.payment_terms_days !== null && send('payment_terms_days')) input.payment_terms_days = header.payment_terms_days;
    if (send('owner')) input.owner = header.owner;
    for (const name of SHIP_TO_FIELDS) if (send(name)) input[name] = header[name];
    return input;
  };
  const change = (key: number, patch: Partial<FormLine>) =>
    setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch, ...('vat_rate' in patch ? { vatTyped: true } : {}) } : l)));
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
      ...headerInput(),
      confirm,
      lines: lines.map((l) => ({
        ...(l.id !== undefined ? { id: l.id } : {}),
        product: l.product as number,
        quantity: l.quantity,
        unit_price: l.unit_price,
        discount_percent: l.discount_percent || '0',
        vat_rate: l.vat_rate || '0',
        requested_date: l.requested_date ? l.requested_date.format('YYYY-MM-DD') : null,
        confirmed_date: l.confirmed_date ? l.confirmed_date.format('YYYY-MM-DD') : null,
      })),
    };
    const onError = (err: unknown) => {
      const { byField, rest } = splitErrors(isApiError(err) ? err.fieldErrors : null, lines.length);
      setFieldErrors(byField);
      if (DETAIL_FIELDS.some((name) => byField[name])) setDetailsOpen(true);
      setError(rest.length > 0 ? rest.join(' ') : errorText(err));
    };
    const onSuccess = (saved: SalesOrderDetail) => {
      void message.success(t(editing ? 'edit.saved' : 'create.created', { number: saved.order_number }));
      setLeaveTo(orderPath(saved.id));
    };
    if (order) update.mutate({ ...input, confirm: false, id: order.id, unchanged_since: order.updated_at }, { onSuccess, onError });
    else create.mutate(input, { onSuccess, onError });
  };

  /** A line's inputs, laid out as table cells, or on a phone as a card per line. */
  const cells = {
    product: (line: FormLine, index: number) => (
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
    number: (field: (typeof NUMBER_FIELDS)[number]) => (line: FormLine, index: number) => (
      <Form.Item style={{ marginBottom: 0 }} {...fieldError(`lines.${index}.${field}`)}>
        <InputNumber<string>
          stringMode
          min="0"
          max={field === 'discount_percent' || field === 'vat_rate' ? '100' : undefined}
          style={{ width: '100%' }}
          inputMode="decimal"
          aria-label={`${t(`fields.${field}`)} ${index + 1}`}
          value={line[field]}
          onChange={(value) => change(line.key, { [field]: value ?? '' })}
          data-testid={`line-${field}-${index}`}
        />
      </Form.Item>
    ),
    date: (field: 'requested_date' | 'confirmed_date') => (line: FormLine, index: number) => (
      <Form.Item style={{ marginBottom: 0 }} {...fieldError(`lines.${index}.${field}`)}>
        <DatePicker
          aria-label={`${t(`fields.${field}`)} ${index + 1}`}
          style={{ width: '100%' }}
          value={line[field]}
          onChange={(d) => change(line.key, { [field]: d })}
          data-testid={`line-${field}-${index}`}
        />
      </Form.Item>
    ),
    amount: (line: FormLine, index: number) => (
      <span data-testid={`line-amount-${index}`}>
        {f.money(String(lineAmounts(line.quantity, line.unit_price, line.discount_percent, line.vat_rate).net), currency)}
      </span>
    ),
    remove: (line: FormLine, index: number) => (
      <Button
        type="text"
        icon={<DeleteOutlined />}
        aria-label={t('create.removeLine', { n: index + 1 })}
        disabled={lines.length === 1}
        onClick={() => setLines((all) => all.filter((l) => l.key !== line.key))}
      />
    ),
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
              onChange={(_, record) => chooseCustomer(record)}
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
                    header.currency,
                    header.payment_terms_days !== null ? t('create.termsDays', { count: header.payment_terms_days }) : '',
                    [header.ship_to_street, header.ship_to_city].filter(Boolean).join(', '),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography.Text>
              ),
              forceRender: true,
              children: (
                <>
                  <Flex gap="middle" wrap>
                    <Form.Item label={t('fields.currency')} htmlFor="sales-currency" style={{ width: 120 }} {...fieldError('currency')}>
                      <Input
                        id="sales-currency"
                        value={header.currency}
                        maxLength={3}
                        onChange={(e) => changeHeader({ currency: e.target.value.toUpperCase() })}
                        data-testid="sales-currency"
                      />
                    </Form.Item>
                    <Form.Item
                      label={t('fields.payment_terms_days')}
                      htmlFor="sales-payment-terms"
                      style={{ width: 180 }}
                      {...fieldError('payment_terms_days')}
                    >
                      <InputNumber<number>
                        id="sales-payment-terms"
                        min={0}
                        max={365}
                        precision={0}
                        style={{ width: '100%' }}
                        value={header.payment_terms_days}
                        onChange={(value) => changeHeader({ payment_terms_days: value ?? null })}
                        data-testid="sales-payment-terms"
                      />
                    </Form.Item>
                    <Form.Item
                      label={t('fields.owner')}
                      htmlFor="sales-owner"
                      tooltip={t('create.ownerHint')}
                      style={{ minWidth: 'min(260px, 100%)', flex: 1 }}
                      {...fieldError('owner')}
                    >
                      <RemoteSelect<OwnerOption>
                        id="sales-owner"
                        queryKey={OWNERS_URL}
                        search={searchOwners}
                        toOption={ownerOption}
                        initial={order?.owner ? [ownerOption({ id: order.owner, username: order.owner_name, name: order.owner_name })] : []}
                        allowClear
                        placeholder={t(editing ? 'create.ownerPlaceholder' : 'create.ownerDefault')}
                        value={header.owner ?? undefined}
                        onChange={(value) => changeHeader({ owner: value ?? null })}
                        data-testid="sales-owner"
                      />
                    </Form.Item>
                  </Flex>
                  <Typography.Text strong>{t('fields.ship_to')}</Typography.Text>
                  <Flex gap="middle" wrap style={{ marginTop: 8 }}>
                    {SHIP_TO_FIELDS.map((name) => (
                      <Form.Item
                        key={name}
                        label={t(`fields.${name}`)}
                        htmlFor={`sales-${name}`}
                        style={{ flex: name === 'ship_to_name' || name === 'ship_to_street' ? 2 : 1, minWidth: name === 'ship_to_country' ? 90 : 160 }}
                        {...fieldError(name)}
                      >
                        <Input
                          id={`sales-${name}`}
                          value={header[name]}
                          maxLength={SHIP_TO_MAX[name]}
                          onChange={(e) => changeHeader({ [name]: name === 'ship_to_country' ? e.target.value.toUpperCase() : e.target.value })}
                          data-testid={`sales-${name}`}
                        />
                      </Form.Item>
                    ))}
                  </Flex>
                </>
              ),
            },
          ]}
        />
        {phone ? (
          <Flex vertical gap="small" data-testid="line-cards">
            {lines.map((line, index) => (
              <div key={line.key} className={styles.lineCard} data-testid={`line-card-${index}`}>
                <Flex justify="space-between" align="center">
                  <Typography.Text strong>{t('create.lineN', { n: index + 1 })}</Typography.Text>
                  {cells.remove(line, index)}
                </Flex>
                <Form.Item label={t('fields.product')} style={{ marginBottom: 8 }}>
                  {cells.product(line, index)}
                </Form.Item>
                <div className={styles.lineGrid}>
                  {NUMBER_FIELDS.map((field) => (
                    <Form.Item key={field} label={t(`fields.${field}`)} style={{ marginBottom: 8 }}>
                      {cells.number(field)(line, index)}
                    </Form.Item>
                  ))}
                  <Form.Item label={t('fields.requested_date')} style={{ marginBottom: 8 }}>
                    {cells.date('requested_date')(line, index)}
                  </Form.Item>
                  <Form.Item label={t('fields.confirmed_date')} style={{ marginBottom: 8 }}>
                    {cells.date('confirmed_date')(line, index)}
                  </Form.Item>
                </div>
                <Flex justify="space-between">
                  <Typography.Text type="secondary">{t('fields.amount_net')}</Typography.Text>
                  {cells.amount(line, index)}
                </Flex>
              </div>
            ))}
          </Flex>
        ) : (
          <Table<FormLine>
            rowKey="key"
            size="small"
            pagination={false}
            scroll={{ x: 1050 }}
            dataSource={lines}
            columns={[
              { title: t('fields.product'), key: 'product', width: 300, render: (_, line, index) => cells.product(line, index) },
              ...NUMBER_FIELDS.map((field) => ({
                title: t(`fields.${field}`),
                key: field,
                width: 120,
                render: (_: unknown, line: FormLine, index: number) => cells.number(field)(line, index),
              })),
              { title: t('fields.requested_date'), key: 'requested_date', width: 150, render: (_, line, index) => cells.date('requested_date')(line, index) },
              { title: t('fields.confirmed_date'), key: 'confirmed_date', width: 150, render: (_, line, index) => cells.date('confirmed_date')(line, index) },
              { title: t('fields.amount_net'), key: 'amount', align: 'right', width: 120, render: (_, line, index) => cells.amount(line, index) },
              { title: '', key: 'remove', width: 50, render: (_, line, index) => cells.remove(line, index) },
            ]}
          />
        )}
        <Button icon={<PlusOutlined />} onClick={() => setLines((all) => [...all, emptyLine(proposedRate === null ? '' : String(Number(proposedRate)))])} style={{ marginTop: 8 }} data-testid="add-line">
          {t('create.addLine')}
        </Button>
        <Descriptions title={t('create.totals')} size="small" column={{ xs: 1, sm: 3 }} style={{ marginTop: 16, marginBottom: 12 }}>
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
                <Typography.Text type="secondary">{t('vat.ratesAsOf', { date: vat.data.rates_as_of })}</Typography.Text>
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
