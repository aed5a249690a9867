import { ThunderboltOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { useErrorText } from '@/shared/errors/errorText';
import { formatDate } from '@/shared/utils/format';
import { useOpenOrdersForProduct, useProductSearch, usePurchaseOrder, type ProductOption } from '../api/lookups';
import { useGenerateCartons, useGenerationLimit } from '../api/rawMaterials';
import type { GenerateCartonsResult, ProductionBatch, RawMaterial } from '../api/types';
import { isValidBatchCode, suggestBatchCode } from '../lib/batchCode';
import { countRule, productSearchRule, remainingRule } from '../lib/validation';
import { consumption, formatKg, toKg } from '../lib/weight';
import styles from './eudr.module.css';

interface Props {
  material: RawMaterial;
  batches: readonly ProductionBatch[];
  open: boolean;
  onClose: () => void;
  onGenerated: (result: GenerateCartonsResult) => void;
}

interface Values {
  count?: number | null;
  production_batch_code?: string;
  product?: number;
  order?: number;
  purchase_order_line?: number;
  container?: string;
}

/** The net weight a carton will consume: the order line's, else the product's, never below the policy minimum. */
export function netWeightPerCarton(lineWeight: string | null | undefined, productWeight: string | null | undefined, minConsumption: string): number | null {
  const base = toKg(lineWeight) > 0 ? toKg(lineWeight) : toKg(productWeight);
  if (base <= 0) return null;
  return Math.max(base, toKg(minConsumption));
}

/**
 * Generates carton labels from the delivery's remaining weight (docs/specification.md sections 2, 5 and 9): count,
 * production batch code (date + letter), product (search of at least 2 characters), purchase order
 * line and optional container. Shows what the request will consume before it is sent; the server
 * decides and its refusals are shown with their messages.
 */
export function GenerateCartonsDialog({ material, batches, open, onClose, onGenerated }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const errorText = useErrorText();
  const [form] = Form.useForm<Values>();
  const [term, setTerm] = useState('');
  const [picked, setPicked] = useState<ProductOption | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; maxCartons?: number } | null>(null);
  const generate = useGenerateCartons(material.id);
  const products = useProductSearch(term);
  const orderId = Form.useWatch('order', form);
  const lineId = Form.useWatch('purchase_order_line', form);
  const count = Form.useWatch('count', form);
  const orders = useOpenOrdersForProduct(material.parent_vendor, picked?.id);
  const order = usePurchaseOrder(orderId);
  // The server's one limit of every rule (weight, order line, cap, request size) and today's first free code.
  const limit = useGenerationLimit(material.id, picked?.id ?? null, lineId ?? null, open);
  const maxCartons = limit.data?.max_cartons ?? null;
  const binding = limit.data?.binding ?? null;

  const remainingKg = toKg(material.weight.remaining_kg);
  const blocked = remainingRule(material.weight.remaining_kg);
  const searchHint = productSearchRule(term);
  const lines = useMemo(() => (order.data?.lines ?? []).filter((line) => !picked || line.product === picked.id), [order.data, picked]);
  const line = lines.find((l) => l.id === lineId);
  const perCarton = picked ? netWeightPerCarton(line?.weight_per_carton, picked.weight_per_carton_kg, material.min_consumption_per_carton) : null;
  const preview = perCarton === null ? null : consumption(count ?? 0, perCarton, remainingKg);
  const capLeft = material.remaining_cartons;
  const kg = (value: number) => t('units.kg', { value: formatKg(value, i18n.language) });
  const productLabel = (p: ProductOption) => `${p.article_number} · ${i18n.language === 'zh' && p.name_zh ? p.name_zh : p.name}`;

  const close = () => {
    form.resetFields();
    setPicked(null);
    setTerm('');
    setRefusal(null);
    onClose();
  };

  const submit = async (values: Values) => {
    setRefusal(null);
    try {
      const result = await generate.mutateAsync({
        count: Number(values.count),
        production_batch_code: (values.production_batch_code ?? '').trim().toUpperCase(),
        product: values.product as number,
        purchase_order_line: values.purchase_order_line as number,
        container: (values.container ?? '').trim(),
      });
      onGenerated(result);
      close();
    } catch (error) {
      const fields = isApiError(error) ? error.fieldErrors : null;
      const known = ['count', 'production_batch_code', 'product', 'purchase_order_line', 'container'];
      if (fields && Object.keys(fields).some((name) => known.includes(name))) {
        form.setFields(Object.entries(fields).filter(([name]) => known.includes(name)).map(([name, errors]) => ({ name: name as keyof Values, errors })));
      }
      const data = isApiError(error) ? (error.data as { max_cartons?: number } | null) : null;
      setRefusal({ message: errorText(error), maxCartons: typeof data?.max_cartons === 'number' ? data.max_cartons : undefined });
    }
  };

  const ruleOf = (rule: (value: unknown) => string | null) => ({
    validator: (_: unknown, value: unknown) => {
      const key = rule(value);
      return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
    },
  });

  return (
    <Modal
      open={open}
      title={t('generate.title', { number: material.delivery_number })}
      onCancel={close}
      destroyOnHidden
      width={640}
      okText={t('generate.submit')}
      cancelText={t('common:actions.cancel')}
      okButtonProps={{ disabled: blocked !== null, loading: generate.isPending, icon: <ThunderboltOutlined />, 'data-testid': 'generate-submit' }}
      onOk={() => form.submit()}
      forceRender
    >
      {blocked ? <Alert type="error" showIcon title={t(blocked)} className={styles.section} data-testid="generate-blocked" /> : null}
      <Descriptions size="small" column={2} className={styles.section}>
        <Descriptions.Item label={t('weight.remaining')}>{kg(remainingKg)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.min_consumption_per_carton')}>{kg(toKg(material.min_consumption_per_carton))}</Descriptions.Item>
        {capLeft !== null ? <Descriptions.Item label={t('generate.capLeft')}>{capLeft}</Descriptions.Item> : null}
      </Descriptions>
      <Form<Values> form={form} layout="vertical" onFinish={(values) => void submit(values)} disabled={blocked !== null} data-testid="generate-form">
        <Form.Item name="count" label={t('generate.count')} required rules={[ruleOf(countRule)]}>
          {/* no min: a clamp would silently turn 0 or a negative count into 1; the rule refuses them with a message */}
          <InputNumber<number> max={20000} precision={0} className={styles.full} data-testid="generate-count" />
        </Form.Item>
        <Form.Item
          label={t('fields.production_batch_code')}
          required
          extra={t('generate.batchCodeHelp')}
        >
          <Space.Compact block>
            <Form.Item
              name="production_batch_code"
              noStyle
              normalize={(value: string) => value.toUpperCase()}
              rules={[
                { required: true, message: t('validation.batchCodeRequired') },
                {
                  validator: (_: unknown, value: string | undefined) =>
                    !value || isValidBatchCode(value) ? Promise.resolve() : Promise.reject(new Error(t('validation.batchCodeFormat'))),
                },
              ]}
            >
              <Input maxLength={9} placeholder={t('generate.batchCodePlaceholder')} autoComplete="off" data-testid="generate-batch-code" />
            </Form.Item>
            <Button
              onClick={() => {
                // Asked afresh: codes are unique in the whole company, and another delivery may just have taken one.
                void limit.refetch().then((fresh) => {
                  const code = fresh.data?.next_batch_code ?? suggestBatchCode(batches.map((b) => b.production_batch_code));
                  form.setFieldValue('production_batch_code', code);
                  void form.validateFields(['production_batch_code']).catch(() => undefined);
                });
              }}
              data-testid="generate-suggest-code"
            >
              {t('generate.todayCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="product"
          label={t('generate.product')}
          required
          rules={[{ required: true, message: t('validation.productRequired') }]}
          help={searchHint ? t(searchHint) : undefined}
          validateStatus={searchHint ? 'warning' : undefined}
        >
          <Select<number>
            showSearch={{ filterOption: false, onSearch: setTerm, searchValue: term }}
            placeholder={t('generate.productPlaceholder')}
            loading={products.isFetching}
            notFoundContent={
              term.trim().length === 0 ? t('generate.productTypeToSearch') : searchHint ? t(searchHint) : products.isFetching ? t('common:states.loading') : t('generate.productNone')
            }
            options={(products.data ?? []).map((p) => ({ value: p.id, label: productLabel(p) }))}
            onChange={(value) => {
              setPicked((products.data ?? []).find((p) => p.id === value) ?? null);
              form.setFieldsValue({ order: undefined, purchase_order_line: undefined });
            }}
            labelRender={() => (picked ? productLabel(picked) : null)}
            data-testid="generate-product"
          />
        </Form.Item>
        {/* The order only narrows the line; the line field alone says that a line is required. */}
        <Form.Item name="order" label={t('generate.order')} required>
          <Select<number>
            disabled={!picked}
            loading={orders.isFetching}
            placeholder={picked ? t('generate.orderPlaceholder') : t('generate.pickProductFirst')}
            notFoundContent={t('generate.noOpenOrders')}
            options={(orders.data ?? []).map((o) => ({ value: o.id, label: `${o.order_number} · ${formatDate(o.order_date, i18n.language)}${o.supplier_detail ? ` · ${o.supplier_detail.name}` : ''}` }))}
            onChange={() => form.setFieldValue('purchase_order_line', undefined)}
            data-testid="generate-order"
          />
        </Form.Item>
        <Form.Item name="purchase_order_line" label={t('generate.line')} required rules={[{ required: true, message: t('validation.purchaseOrderLineRequired') }]}>
          <Select<number>
            disabled={!orderId}
            loading={order.isFetching}
            options={lines.map((l) => ({
              value: l.id,
              label: t('generate.lineLabel', {
                number: l.line_number,
                product: l.product_number,
                qty: l.order_qty,
                weight: l.weight_per_carton ? kg(toKg(l.weight_per_carton)) : t('common.none'),
              }),
            }))}
            data-testid="generate-line"
          />
        </Form.Item>
        <Form.Item name="container" label={t('fields.container')}>
          <Input maxLength={50} autoComplete="off" />
        </Form.Item>
      </Form>

      {picked && perCarton === null && line ? <Alert type="warning" showIcon title={t('generate.noCartonWeight')} className={styles.section} /> : null}
      {preview && perCarton !== null ? (
        <Alert
          className={styles.section}
          type={preview.fits && (maxCartons === null || (count ?? 0) <= maxCartons) ? 'info' : 'warning'}
          showIcon
          data-testid="generate-preview"
          title={t('generate.previewTitle', { perCarton: kg(perCarton) })}
          description={
            <>
              <div>{t('generate.previewConsumes', { total: kg(preview.totalKg), remaining: kg(remainingKg), after: kg(Math.max(preview.remainingAfterKg, 0)) })}</div>
              {maxCartons !== null && binding !== null ? (
                <div data-testid="generate-limit">
                  {t('generate.limit', { count: maxCartons })} {t(`generate.binding.${binding}`)}
                </div>
              ) : (
                <div>{t('generate.previewMax', { count: capLeft === null ? preview.maxCartons : Math.min(preview.maxCartons, capLeft) })}</div>
              )}
              {maxCartons !== null && (count ?? 0) > maxCartons && preview.fits ? (
                <Typography.Text type="danger">{t('generate.overLimit', { count: maxCartons })}</Typography.Text>
              ) : null}
              {!preview.fits ? <Typography.Text type="danger">{t('generate.previewTooMany')}</Typography.Text> : null}
            </>
          }
        />
      ) : null}
      {refusal ? (
        <Alert
          type="error"
          showIcon
          title={refusal.message}
          description={refusal.maxCartons !== undefined ? t('generate.refusalMax', { count: refusal.maxCartons }) : undefined}
          data-testid="generate-refusal"
        />
      ) : null}
    </Modal>
  );
}
