import { paths } from '@/shared/routing/paths';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Select, Table } from 'antd';
import type { FormListFieldData } from 'antd/es/form/FormList';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RemoteSelect, type RemoteOption } from '@/shared/components/RemoteSelect';
import { useErrorText } from '@/shared/errors/errorText';
import { applyApiErrorToForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { canonicalDecimal, compareDecimals } from '@/shared/utils/decimal';
import { useFormatters } from '@/shared/utils/format';
import {
  CUSTOMERS_URL,
  PRODUCTS_URL,
  searchCustomers,
  searchProducts,
  useCreateQuotation,
  useUpdateQuotation,
  useVatTreatment,
  type CustomerOption,
  type ProductOption,
  type QuotationDetail,
  type QuotationInput,
} from '../api/sales';
import { lineAmounts, orderTotals } from '../lib/amounts';

/** A quotation line as the form holds it: decimals as strings (exact: lib/amounts.ts). */
interface LineValues {
  /** The line's id when editing: the server keeps the line by it. */
  id?: number;
  product?: number;
  quantity?: string | null;
  unit_price?: string | null;
  discount_percent?: string | null;
  vat_rate?: string | null;
  /** The user typed the VAT rate: the server's proposal no longer replaces it. */
  vatTyped?: boolean;
}

interface FormValues {
  customer?: number;
  quotation_date: Dayjs;
  valid_until: Dayjs;
  customer_reference: string;
  currency: string;
  payment_terms_days: number | null;
  language: 'en' | 'zh' | null;
  terms: string;
  lines: LineValues[];
}

const NUMBER_FIELDS = ['quantity', 'unit_price', 'discount_percent', 'vat_rate'] as const;
const DATE = 'YYYY-MM-DD';
const CURRENCY = /^[A-Z]{3}$/;
/** A new quotation is valid for 30 days unless the user says otherwise. */
const VALID_DAYS = 30;

const emptyLine = (vatRate = ''): LineValues => ({ quantity: '', unit_price: '', discount_percent: '0', vat_rate: vatRate });
const customerOption = (c: CustomerOption): RemoteOption<CustomerOption> => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const productOption = (p: ProductOption): RemoteOption<ProductOption> => ({ value: p.id, label: `${p.article_number} ${p.name}`, record: p });

function initialValues(quotation: QuotationDetail | undefined): FormValues {
  if (!quotation) {
    return {
      quotation_date: dayjs(),
      valid_until: dayjs().add(VALID_DAYS, 'day'),
      customer_reference: '',
      currency: '',
      payment_terms_days: null,
      language: null,
      terms: '',
      lines: [emptyLine()],
    };
  }
  return {
    customer: quotation.customer,
    quotation_date: dayjs(quotation.quotation_date),
    valid_until: dayjs(quotation.valid_until),
    customer_reference: quotation.customer_reference ?? '',
    currency: quotation.currency ?? '',
    payment_terms_days: quotation.payment_terms_days ?? null,
    language: quotation.language ?? null,
    terms: quotation.terms ?? '',
    lines: quotation.lines.map((line) => ({
      id: line.id,
      product: line.product,
      quantity: line.quantity,
      unit_price: line.unit_price,
      discount_percent: line.discount_percent,
      vat_rate: line.vat_rate,
    })),
  };
}

const dateText = (value: Dayjs | null | undefined) => (value ? value.format(DATE) : null);

/** What the user can change, as one comparable value ("100.000" is "100"). */
function snapshot(values: Partial<FormValues>): string {
  return JSON.stringify([
    values.customer,
    dateText(values.quotation_date),
    dateText(values.valid_until),
    values.customer_reference ?? '',
    values.currency ?? '',
    values.payment_terms_days ?? null,
    values.language ?? null,
    values.terms ?? '',
    (values.lines ?? []).map((l) => [l?.id, l?.product, ...NUMBER_FIELDS.map((name) => canonicalDecimal(l?.[name]))]),
  ]);
}

const lineComplete = (l: LineValues | undefined) =>
  Boolean(l?.product) && compareDecimals(l?.quantity, '0') > 0 && (l?.unit_price ?? '') !== '';

/** The body: currency, terms and language only when set (else the server takes the customer's). */
function toInput(values: FormValues): QuotationInput {
  return {
    customer: values.customer as number,
    quotation_date: (values.quotation_date ?? dayjs()).format(DATE),
    valid_until: (values.valid_until ?? dayjs()).format(DATE),
    customer_reference: values.customer_reference ?? '',
    terms: values.terms ?? '',
    ...(values.currency ? { currency: values.currency } : {}),
    ...(values.payment_terms_days !== null && values.payment_terms_days !== undefined ? { payment_terms_days: values.payment_terms_days } : {}),
    ...(values.language ? { language: values.language } : {}),
    lines: values.lines.map((l) => ({
      ...(l.id !== undefined ? { id: l.id } : {}),
      product: l.product as number,
      quantity: String(l.quantity ?? ''),
      unit_price: String(l.unit_price ?? ''),
      discount_percent: l.discount_percent || '0',
      vat_rate: l.vat_rate || '0',
    })),
  };
}

/**
 * The quotation form of the new and the edit page, in the idiom of the sales order form (an antd Form with
 * a Form.List of lines; amounts and totals as the user types, exact decimals rounded as the server rounds;
 * the VAT rate the server proposes for the customer on new lines; server errors on their fields and cells;
 * leaving with unsaved changes asks first). The order form's line editor is not shared: its lines carry
 * delivery dates and its phone layout, which a quotation does not have.
 */
export function QuotationForm({ quotation: given }: { quotation?: QuotationDetail }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const f = useFormatters();
  const create = useCreateQuotation();
  const update = useUpdateQuotation();
  const [form] = Form.useForm<FormValues>();
  const [quotation] = useState(given);
  const initial = useMemo(() => initialValues(quotation), [quotation]);
  const initialSnapshot = useMemo(() => snapshot(initial), [initial]);
  const [error, setError] = useState<string | null>(null);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesGuard(dirty && leaveTo === null);
  useEffect(() => {
    if (leaveTo !== null) void navigate(leaveTo);
  }, [leaveTo, navigate]);

  const watched = Form.useWatch([], { form, preserve: true }) as Partial<FormValues> | undefined;
  const values: Partial<FormValues> = watched ?? initial;
  const lines = values.lines ?? initial.lines;
  const currency = CURRENCY.test(values.currency ?? '') ? (values.currency as string) : quotation?.currency || 'EUR';
  const totals = orderTotals(lines.map((l) => l ?? {}));

  const vat = useVatTreatment(values.customer, '');
  const proposedRate = vat.data?.rate ?? null;
  useEffect(() => {
    if (proposedRate === null) return;
    const rate = canonicalDecimal(proposedRate);
    const current = (form.getFieldValue('lines') ?? []) as LineValues[];
    if (current.some((l) => l.id === undefined && !l.vatTyped && l.vat_rate !== rate)) {
      form.setFieldValue('lines', current.map((l) => (l.id === undefined && !l.vatTyped ? { ...l, vat_rate: rate } : l)));
    }
  }, [proposedRate, form]);

  const productInitial = useMemo(
    () =>
      (quotation?.lines ?? []).map((line) =>
        productOption({ id: line.product, article_number: line.product_number, name: line.product_name, name_zh: line.product_name_zh, sales_price: null }),
      ),
    [quotation],
  );
  const chooseProduct = (name: number, record: ProductOption | undefined) => {
    const price = form.getFieldValue(['lines', name, 'unit_price']) as string | null | undefined;
    if (!price && record?.sales_price) form.setFieldValue(['lines', name, 'unit_price'], record.sales_price);
  };

  const onFinish = async () => {
    setError(null);
    const input = toInput({ ...initial, ...(form.getFieldsValue(true) as FormValues) });
    try {
      const saved = quotation ? await update.mutateAsync({ ...input, id: quotation.id }) : await create.mutateAsync(input);
      void message.success(t(quotation ? 'quotation.saved' : 'quotation.created', { number: saved.quotation_number }));
      setLeaveTo(paths.salesQuotation(saved.id));
    } catch (err) {
      const rest = applyApiErrorToForm(form, err, errorText);
      setError(rest ?? errorText(err));
    }
  };

  const numberCell = (name: (typeof NUMBER_FIELDS)[number]) => (field: FormListFieldData) => (
    <Form.Item name={[field.name, name]} style={{ marginBottom: 0 }}>
      <InputNumber<string>
        stringMode
        min="0"
        max={name === 'discount_percent' || name === 'vat_rate' ? '100' : undefined}
        style={{ width: '100%' }}
        inputMode="decimal"
        aria-label={`${t(`fields.${name}`)} ${field.name + 1}`}
        onChange={name === 'vat_rate' ? () => form.setFieldValue(['lines', field.name, 'vatTyped'], true) : undefined}
        data-testid={`quotation-line-${name}-${field.name}`}
      />
    </Form.Item>
  );

  return (
    <Card>
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={() => void onFinish()}
        onValuesChange={() => {
          setDirty(snapshot(form.getFieldsValue(true) as FormValues) !== initialSnapshot);
          if (form.getFieldError('lines').length > 0) void form.validateFields([['lines']]).catch(() => undefined);
        }}
      >
        <Flex gap="middle" wrap>
          <Form.Item
            name="customer"
            label={t('fields.customer')}
            htmlFor="quotation-customer"
            rules={[{ required: true, message: t('create.customerRequired') }]}
            style={{ minWidth: 'min(320px, 100%)', flex: 2 }}
          >
            <RemoteSelect<CustomerOption>
              id="quotation-customer"
              queryKey={CUSTOMERS_URL}
              search={searchCustomers}
              toOption={customerOption}
              initial={
                quotation
                  ? [customerOption({ id: quotation.customer_detail.id, number: quotation.customer_detail.number, name: quotation.customer_detail.name })]
                  : []
              }
              placeholder={t('create.customerPlaceholder')}
              data-testid="quotation-customer"
            />
          </Form.Item>
          <Form.Item name="quotation_date" label={t('quotation.fields.quotation_date')} required htmlFor="quotation-date">
            <DatePicker id="quotation-date" allowClear={false} />
          </Form.Item>
          <Form.Item name="valid_until" label={t('quotation.fields.valid_until')} required htmlFor="quotation-valid-until">
            <DatePicker id="quotation-valid-until" allowClear={false} data-testid="quotation-valid-until" />
          </Form.Item>
          <Form.Item name="customer_reference" label={t('fields.customer_reference')} htmlFor="quotation-reference" style={{ flex: 1, minWidth: 180 }}>
            <Input id="quotation-reference" maxLength={100} />
          </Form.Item>
        </Flex>
        <Flex gap="middle" wrap>
          <Form.Item
            name="currency"
            label={t('fields.currency')}
            htmlFor="quotation-currency"
            tooltip={t('quotation.customerDefault')}
            normalize={(value: string) => value.toUpperCase()}
            style={{ width: 140 }}
          >
            <Input id="quotation-currency" maxLength={3} />
          </Form.Item>
          <Form.Item name="payment_terms_days" label={t('fields.payment_terms_days')} htmlFor="quotation-terms-days" style={{ width: 180 }}>
            <InputNumber<number> id="quotation-terms-days" min={0} max={365} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="language" label={t('quotation.fields.language')} htmlFor="quotation-language" style={{ width: 180 }}>
            <Select
              id="quotation-language"
              allowClear
              placeholder={t('quotation.customerDefault')}
              options={[
                { value: 'en', label: t('quotation.language.en') },
                { value: 'zh', label: t('quotation.language.zh') },
              ]}
            />
          </Form.Item>
        </Flex>
        <Form.Item name="terms" label={t('quotation.fields.terms')} htmlFor="quotation-terms">
          <Input.TextArea id="quotation-terms" maxLength={2000} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Form.List
          name="lines"
          rules={[
            {
              validator: (_: unknown, value: LineValues[] | undefined) =>
                !value || value.length === 0 || !value.every(lineComplete) ? Promise.reject(new Error(t('create.linesRequired'))) : Promise.resolve(),
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              <Table<FormListFieldData>
                rowKey="key"
                size="small"
                pagination={false}
                scroll={{ x: 850 }}
                dataSource={fields}
                columns={[
                  {
                    title: t('fields.product'),
                    key: 'product',
                    width: 300,
                    render: (_, field) => (
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
                          data-testid={`quotation-line-product-${field.name}`}
                        />
                      </Form.Item>
                    ),
                  },
                  ...NUMBER_FIELDS.map((name) => ({
                    title: t(`fields.${name}`),
                    key: name,
                    width: 120,
                    render: (_: unknown, field: FormListFieldData) => numberCell(name)(field),
                  })),
                  {
                    title: t('fields.amount_net'),
                    key: 'amount',
                    align: 'right',
                    width: 120,
                    render: (_, field) => {
                      const line = lines[field.name];
                      return (
                        <span data-testid={`quotation-line-amount-${field.name}`}>
                          {f.money(lineAmounts(line?.quantity, line?.unit_price, line?.discount_percent, line?.vat_rate).net, currency)}
                        </span>
                      );
                    },
                  },
                  {
                    title: '',
                    key: 'remove',
                    width: 50,
                    render: (_, field) => (
                      <Button
                        type="text"
                        icon={<DeleteOutlined />}
                        aria-label={t('create.removeLine', { n: field.name + 1 })}
                        disabled={fields.length === 1}
                        onClick={() => remove(field.name)}
                      />
                    ),
                  },
                ]}
              />
              <Form.ErrorList errors={errors} />
              <Button
                icon={<PlusOutlined />}
                onClick={() => add(emptyLine(proposedRate === null ? '' : canonicalDecimal(proposedRate)))}
                style={{ marginTop: 8 }}
                data-testid="quotation-add-line"
              >
                {t('create.addLine')}
              </Button>
            </>
          )}
        </Form.List>
        <Descriptions title={t('create.totals')} size="small" column={{ xs: 1, sm: 3 }} style={{ marginTop: 16, marginBottom: 12 }}>
          <Descriptions.Item label={t('fields.total_net')}>
            <span data-testid="quotation-total-net">{f.money(totals.net, currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.total_vat')}>
            <span data-testid="quotation-total-vat">{f.money(totals.vat, currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.total_gross')}>
            <span data-testid="quotation-total-gross">{f.money(totals.gross, currency)}</span>
          </Descriptions.Item>
        </Descriptions>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="quotation-form-error" role="alert" /> : null}
        <Flex gap="small" wrap>
          <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending} data-testid="save-quotation">
            {t('quotation.save')}
          </Button>
          <Button onClick={() => void navigate(quotation ? paths.salesQuotation(quotation.id) : paths.salesQuotations())}>{t('edit.cancel')}</Button>
        </Flex>
      </Form>
    </Card>
  );
}
