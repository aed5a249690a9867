import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, DatePicker, Flex, Form, Input, InputNumber, Row, Select, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { FormListFieldData } from 'antd/es/form/FormList';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { displayName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { ORDER_OWNERS_URL, PRODUCTS_URL, SUPPLIERS_URL } from '../api/endpoints';
import { fetchOwner, searchOwners, searchProducts, searchSuppliers, useOrderShipments, useSaveOrder } from '../api/orders';
import {
  ORDER_TYPES,
  type OrderInput,
  type OrderType,
  type OwnerOption,
  type ProductOption,
  type PurchaseOrderDetail,
  type SupplierOption,
} from '../api/types';
import { check } from '../lib/check';
import { compareQty, lineAmount, sumAmounts } from '../lib/decimal';
import { useFormatters } from '@/shared/utils/format';
import { ownerOption, supplierOption } from '../lib/options';
import { RemoteSelect, type RemoteOption } from '@/shared/components/RemoteSelect';
import styles from './OrderForm.module.css';
import { paths } from '@/shared/routing/paths';

const ORDER_NUMBER_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const CURRENCY_RE = /^[A-Z]{3}$/;
const DATE = 'YYYY-MM-DD';
// A line's calendar opens from a table that scrolls sideways: on a phone it is shifted back onto the screen.
const KEEP_ON_SCREEN = { overflow: { adjustX: true, adjustY: true, shiftX: true } };

interface LineValues {
  id?: number;
  product?: number;
  line_description?: string;
  order_qty?: string | null;
  unit_cost?: string | null;
  weight_per_carton?: string | null;
  /** The line's own delivery date; empty: the order's promise date applies. */
  delivery_date?: Dayjs | null;
  /** Read-only: what was already received (edit). */
  received_qty?: string;
  /** Read-only: active carton labels issued against the line (edit). */
  cartons_issued?: number;
}

/** What keeps a line's product, weight and the line itself (docs/purchasing.md "Lines"). */
function lineLocks(line: LineValues | undefined) {
  const received = Boolean(line?.received_qty && compareQty(line.received_qty, '0') > 0);
  const labelled = (line?.cartons_issued ?? 0) > 0;
  return { received, labelled, product: received || labelled, weight: labelled };
}

interface FormValues {
  order_number?: string;
  supplier?: number;
  order_date?: Dayjs;
  promise_date?: Dayjs | null;
  type: OrderType;
  currency: string;
  description?: string;
  /** The owner's user id; null: no owner. */
  owner?: number | null;
  lines: LineValues[];
}

interface Props {
  /** The order to edit; absent for a new order. */
  order?: PurchaseOrderDetail;
}

function productOption(product: ProductOption, language: string): RemoteOption<ProductOption> {
  const name = language === 'zh' && product.name_zh ? product.name_zh : product.name;
  return { value: product.id, label: `${product.article_number} · ${name}`, record: product };
}


function initialValues(order: PurchaseOrderDetail | undefined, me: number | null): FormValues {
  if (!order) {
    return { order_date: dayjs(), type: 'standard', currency: 'EUR', owner: me, lines: [{}] };
  }
  return {
    order_number: order.order_number,
    supplier: order.supplier,
    order_date: dayjs(order.order_date),
    promise_date: order.promise_date ? dayjs(order.promise_date) : null,
    type: order.type,
    currency: order.currency,
    description: order.description,
    owner: order.owner,
    lines: order.lines.map((line) => ({
      id: line.id,
      product: line.product,
      line_description: line.line_description,
      order_qty: line.order_qty,
      unit_cost: line.unit_cost,
      weight_per_carton: line.weight_per_carton,
      delivery_date: line.delivery_date ? dayjs(line.delivery_date) : null,
      received_qty: line.received_qty,
      cartons_issued: line.cartons_issued,
    })),
  };
}

/**
 * The owner goes to the server only when the user changed it: a new order left with its default (the
 * creator) gets the creator from the server, and an order keeps the owner it has.
 */
function toInput(values: FormValues, creating: boolean, initialOwner: number | null | undefined): OrderInput {
  const input: OrderInput = {
    order_date: (values.order_date ?? dayjs()).format(DATE),
    supplier: values.supplier ?? 0,
    currency: values.currency,
    type: values.type,
    description: values.description ?? '',
    promise_date: values.promise_date ? values.promise_date.format(DATE) : null,
    lines: values.lines.map((line) => ({
      ...(line.id ? { id: line.id } : {}),
      product: line.product ?? 0,
      line_description: line.line_description ?? '',
      order_qty: String(line.order_qty ?? ''),
      unit_cost: String(line.unit_cost ?? ''),
      weight_per_carton: line.weight_per_carton === undefined || line.weight_per_carton === '' ? null : line.weight_per_carton,
      delivery_date: line.delivery_date ? line.delivery_date.format(DATE) : null,
    })),
  };
  if (creating && values.order_number?.trim()) input.order_number = values.order_number.trim();
  const owner = values.owner ?? null;
  if (owner !== (initialOwner ?? null)) input.owner = owner;
  return input;
}

/** A day before the order date (the server refuses such a promise or delivery date). */
function beforeOrderDate(day: Dayjs | null | undefined, orderDate: Dayjs | null | undefined): boolean {
  return Boolean(day && orderDate && day.isBefore(orderDate, 'day'));
}

/**
 * Create or edit a purchase order: header and a lines editor (product search, quantity, unit cost,
 * weight per carton, delivery date) with the amounts and the total computed live exactly as the server does.
 */
export function OrderForm({ order }: Props) {
  const { t, i18n } = useTranslation('purchase');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const f = useFormatters();
  const creating = order === undefined;
  const me = useSession((s) => s.userInfo);
  const save = useSaveOrder(order?.id);
  const [dirty, setDirty] = useState(false);
  const [savedNumber, setSavedNumber] = useState<string | null>(null);
  useUnsavedChangesGuard(dirty && savedNumber === null);

  const meId = me?.id ?? null;
  const meName = displayName(me);
  const meUsername = me?.username ?? '';
  const initial = useMemo(() => initialValues(order, meId), [order, meId]);
  const ownerInitial = useMemo(() => {
    if (order) return order.owner ? [ownerOption({ id: order.owner, username: order.owner_name, name: order.owner_name })] : [];
    return meId === null ? [] : [ownerOption({ id: meId, username: meUsername, name: meName })];
  }, [order, meId, meName, meUsername]);

  const { form, onFinish, submitting, formError } = useApiForm<FormValues, PurchaseOrderDetail>({
    submit: (values) => save.mutateAsync(toInput(values, creating, initial.owner)),
    onSuccess: (saved) => {
      void message.success(t('form.saved', { orderNumber: saved.order_number }));
      setDirty(false);
      setSavedNumber(saved.order_number);
    },
  });

  // Leave only after the guard has seen the saved state.
  useEffect(() => {
    if (savedNumber) void navigate(paths.purchaseOrder(savedNumber));
  }, [savedNumber, navigate]);

  const productInitial = useMemo(
    () =>
      (order?.lines ?? []).map((line) =>
        productOption(
          {
            id: line.product,
            article_number: line.product_number,
            name: line.product_name,
            name_zh: line.product_name_zh,
            weight_per_carton_kg: line.weight_per_carton,
            is_active: true,
          },
          i18n.language,
        ),
      ),
    [order, i18n.language],
  );
  const supplierInitial = useMemo(
    () =>
      order
        ? [
            supplierOption({
              id: order.supplier_detail.id,
              number: order.supplier_detail.number,
              name: order.supplier_detail.name,
              parent_vendor: order.supplier_detail.parent_vendor.id,
            }),
          ]
        : [],
    [order],
  );

  // Receipts, shipments or carton labels fix the supplier (the server refuses the change: 409).
  const shipments = useOrderShipments(order?.id, !creating);
  const supplierLocked = Boolean(
    order && (compareQty(order.received_qty, '0') > 0 || order.cartons_issued > 0 || (shipments.data?.count ?? 0) > 0),
  );

  // preserve: the read-only received_qty and cartons_issued of a line are not form fields
  const lines = (Form.useWatch('lines', { form, preserve: true }) as LineValues[] | undefined) ?? initial.lines;
  const currency = Form.useWatch('currency', form) ?? initial.currency;
  const orderDate = Form.useWatch('order_date', form);
  const promiseDate = Form.useWatch('promise_date', form);
  const amounts = lines.map((line) => lineAmount(line?.order_qty ?? null, line?.unit_cost ?? null));
  const total = sumAmounts(amounts);

  const onProductChosen = (fieldName: number, product: ProductOption | undefined) => {
    if (!product) return;
    const current = (form.getFieldValue(['lines', fieldName]) ?? {}) as LineValues;
    form.setFieldValue(['lines', fieldName], {
      ...current,
      line_description: current.line_description || (i18n.language === 'zh' && product.name_zh ? product.name_zh : product.name),
      weight_per_carton: current.weight_per_carton || product.weight_per_carton_kg,
      unit_cost: current.unit_cost || product.purchase_price || current.unit_cost,
    });
  };

  const positive = (received?: string) => ({
    validator: (_: unknown, value: string | null | undefined) => {
      if (value === null || value === undefined || value === '') return check(t('form.required'));
      if (compareQty(String(value), '0') <= 0) return check(t('form.qtyPositive'));
      if (received && compareQty(String(value), received) < 0) return check(t('form.belowReceived', { received: f.qty(received) }));
      return check(null);
    },
  });
  const notNegative = (required: boolean) => ({
    validator: (_: unknown, value: string | null | undefined) => {
      if (value === null || value === undefined || value === '') return check(required ? t('form.required') : null);
      return check(compareQty(String(value), '0') < 0 ? t('form.notNegative') : null);
    },
  });

  const lineColumns = (remove: (index: number) => void, count: number): ColumnsType<FormListFieldData> => [
    {
      title: '#',
      key: 'index',
      width: 40,
      // A kept line's id is a (hidden) field of its own: the submitted values hold only the fields, and
      // without the ids the server would take every line for a new one and drop the old ones.
      render: (_, field) => (
        <>
          <Form.Item name={[field.name, 'id']} hidden noStyle>
            <Input />
          </Form.Item>
          <Typography.Text type="secondary">{field.name + 1}</Typography.Text>
        </>
      ),
    },
    {
      title: t('line.product'),
      key: 'product',
      width: 300,
      render: (_, field) => {
        const locks = lineLocks(lines[field.name]);
        return (
          <Form.Item
            name={[field.name, 'product']}
            rules={[{ required: true, message: t('form.required') }]}
            extra={locks.product ? t(locks.received ? 'form.productLockedReceived' : 'form.productLockedCartons') : undefined}
            className={styles.cell}
          >
            <RemoteSelect<ProductOption>
              disabled={locks.product}
              queryKey={PRODUCTS_URL}
              search={searchProducts}
              minChars={2}
              toOption={(p) => productOption(p, i18n.language)}
              initial={productInitial}
              placeholder={t('form.productPlaceholder')}
              notFoundContent={t('form.productMinChars')}
              onChange={(_value, record) => onProductChosen(field.name, record)}
              className={styles.product}
              aria-label={`${t('line.product')} ${field.name + 1}`}
              data-testid={`line-product-${field.name}`}
            />
          </Form.Item>
        );
      },
    },
    {
      title: t('line.line_description'),
      key: 'line_description',
      width: 220,
      render: (_, field) => (
        <Form.Item name={[field.name, 'line_description']} rules={[{ max: 500 }]} className={styles.cell}>
          <Input aria-label={`${t('line.line_description')} ${field.name + 1}`} />
        </Form.Item>
      ),
    },
    {
      title: t('line.order_qty'),
      key: 'order_qty',
      width: 130,
      render: (_, field) => {
        const received = (lines[field.name]?.received_qty ?? undefined) || undefined;
        return (
          <Form.Item name={[field.name, 'order_qty']} rules={[positive(received && compareQty(received, '0') > 0 ? received : undefined)]} className={styles.cell}>
            <InputNumber<string> stringMode min="0" step="1" className={styles.number} aria-label={`${t('line.order_qty')} ${field.name + 1}`} data-testid={`line-qty-${field.name}`} />
          </Form.Item>
        );
      },
    },
    {
      title: t('line.unit_cost'),
      key: 'unit_cost',
      width: 130,
      render: (_, field) => (
        <Form.Item name={[field.name, 'unit_cost']} rules={[notNegative(true)]} className={styles.cell}>
          <InputNumber<string> stringMode min="0" step="0.01" precision={4} className={styles.number} aria-label={`${t('line.unit_cost')} ${field.name + 1}`} data-testid={`line-cost-${field.name}`} />
        </Form.Item>
      ),
    },
    {
      title: (
        <Tooltip title={t('form.weightHint')}>
          <span>{t('line.weight_per_carton')}</span>
        </Tooltip>
      ),
      key: 'weight_per_carton',
      width: 150,
      render: (_, field) => {
        const locked = lineLocks(lines[field.name]).weight;
        return (
          <Form.Item
            name={[field.name, 'weight_per_carton']}
            rules={[notNegative(false)]}
            extra={locked ? t('form.weightLocked') : undefined}
            className={styles.cell}
          >
            <InputNumber<string> stringMode min="0" step="0.001" precision={3} className={styles.number} disabled={locked} aria-label={`${t('line.weight_per_carton')} ${field.name + 1}`} />
          </Form.Item>
        );
      },
    },
    {
      title: (
        <Tooltip title={t('form.deliveryHint')}>
          <span>{t('line.delivery_date')}</span>
        </Tooltip>
      ),
      key: 'delivery_date',
      width: 150,
      // empty: the order's promise date applies, shown as the placeholder
      render: (_, field) => (
        <Form.Item
          name={[field.name, 'delivery_date']}
          dependencies={['order_date']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_: unknown, value: Dayjs | null | undefined) =>
                check(beforeOrderDate(value, getFieldValue('order_date') as Dayjs | undefined) ? t('form.deliveryBeforeOrder') : null),
            }),
          ]}
          className={styles.cell}
        >
          <DatePicker
            format={DATE}
            className={styles.date}
            placeholder={promiseDate ? promiseDate.format(DATE) : DATE}
            disabledDate={(day) => beforeOrderDate(day, orderDate)}
            popupAlign={KEEP_ON_SCREEN}
            aria-label={t('line.deliveryDateLabel', { number: field.name + 1 })}
            data-testid={`line-delivery-${field.name}`}
          />
        </Form.Item>
      ),
    },
    {
      title: t('line.amount'),
      key: 'amount',
      align: 'right',
      width: 130,
      render: (_, field) => <Typography.Text data-testid={`line-amount-${field.name}`}>{f.money(amounts[field.name] ?? '0', currency)}</Typography.Text>,
    },
    {
      key: 'remove',
      width: 48,
      render: (_, field) => {
        const locks = lineLocks(lines[field.name]);
        const locked = locks.received || locks.labelled;
        const hint = locks.received ? t('form.receivedLocked') : locks.labelled ? t('form.cartonsLocked') : t('form.removeLine');
        return (
          <Tooltip title={hint}>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('form.removeLine')}
              disabled={locked || count <= 1}
              onClick={() => remove(field.name)}
            />
          </Tooltip>
        );
      },
    },
  ];

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={onFinish}
      onValuesChange={() => setDirty(true)}
      scrollToFirstError
      data-testid="order-form"
    >
      <Card title={t('form.header')} className={styles.card}>
        <Row gutter={16}>
          <Col xs={24} sm={12} lg={8}>
            <Form.Item
              name="order_number"
              label={t('fields.order_number')}
              tooltip={creating ? t('form.orderNumberHint') : undefined}
              rules={[{ pattern: ORDER_NUMBER_RE, message: t('form.orderNumberInvalid') }, { max: 50 }]}
            >
              <Input disabled={!creating} placeholder={t('form.orderNumberPlaceholder')} data-testid="order-number" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={8}>
            <Form.Item
              name="supplier"
              label={t('fields.supplier')}
              rules={[{ required: true, message: t('form.required') }]}
              extra={supplierLocked ? t('form.supplierLocked') : undefined}
            >
              <RemoteSelect<SupplierOption>
                disabled={supplierLocked}
                queryKey={SUPPLIERS_URL}
                search={searchSuppliers}
                toOption={supplierOption}
                initial={supplierInitial}
                placeholder={t('form.supplierPlaceholder')}
                onChange={(_value, record) => {
                  if (record?.currency && creating) form.setFieldValue('currency', record.currency);
                }}
                data-testid="order-supplier"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6} lg={4}>
            <Form.Item name="order_date" label={t('fields.order_date')} rules={[{ required: true, message: t('form.required') }]}>
              <DatePicker className={styles.full} format={DATE} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6} lg={4}>
            <Form.Item
              name="promise_date"
              label={t('fields.promise_date')}
              dependencies={['order_date']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_: unknown, value: Dayjs | null | undefined) =>
                    check(beforeOrderDate(value, getFieldValue('order_date') as Dayjs | undefined) ? t('form.promiseBeforeOrder') : null),
                }),
              ]}
            >
              <DatePicker className={styles.full} format={DATE} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6} lg={4}>
            <Form.Item name="type" label={t('fields.type')} rules={[{ required: true, message: t('form.required') }]}>
              <Select options={ORDER_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6} lg={4}>
            <Form.Item
              name="currency"
              label={t('fields.currency')}
              normalize={(value: string) => value.toUpperCase()}
              rules={[
                { required: true, message: t('form.required') },
                { pattern: CURRENCY_RE, message: t('form.currencyInvalid') },
              ]}
            >
              <Input maxLength={3} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={6}>
            <Form.Item name="owner" label={t('fields.owner')} tooltip={t('form.ownerHint')}>
              <RemoteSelect<OwnerOption>
                queryKey={ORDER_OWNERS_URL}
                search={searchOwners}
                fetchOne={async (id, signal) => (await fetchOwner(id, signal)).results[0]}
                toOption={ownerOption}
                initial={ownerInitial}
                allowClear
                placeholder={t('form.ownerPlaceholder')}
                data-testid="order-owner-select"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={10}>
            <Form.Item name="description" label={t('fields.description')} rules={[{ max: 500 }]}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('fields.lines')} className={styles.card}>
        <Form.List
          name="lines"
          rules={[
            {
              validator: (_: unknown, value: LineValues[] | undefined) =>
                check(!value || value.length === 0 ? t('form.noLines') : null),
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              <Table<FormListFieldData>
                rowKey="key"
                size="small"
                dataSource={fields}
                columns={lineColumns(remove, fields.length)}
                pagination={false}
                scroll={{ x: 'max-content' }}
              />
              <Form.ErrorList errors={errors} />
              <Flex justify="space-between" align="center" wrap gap="small" className={styles.footer}>
                <Button icon={<PlusOutlined />} onClick={() => add({})} data-testid="add-line">
                  {t('form.addLine')}
                </Button>
                <Typography.Title level={4} className={styles.total} data-testid="order-total">
                  {t('form.total')}: {f.money(total, CURRENCY_RE.test(currency) ? currency : 'EUR')}
                </Typography.Title>
              </Flex>
            </>
          )}
        </Form.List>
      </Card>

      {formError ? <Alert type="error" showIcon title={formError} className={styles.card} /> : null}

      <Flex gap="small" justify="flex-end">
        <Button onClick={() => void navigate(order ? paths.purchaseOrder(order.order_number) : paths.purchaseOrders())}>{t('form.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="order-save">
          {creating ? t('form.create') : t('form.save')}
        </Button>
      </Flex>
    </Form>
  );
}
