import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useSaveProduct } from '../api/products';
import { PRODUCT_UNITS, type Product, type ProductInput, type ProductUnit } from '../api/types';
import { barcodeProblem, currencyCodes, isDecimal, isValidHsCode, normalizeHsCode, toDecimalString } from '../validation';
import { GroupTreeSelect } from './GroupTreeSelect';
import styles from './products.module.css';

export interface ProductFormValues {
  article_number: string;
  name: string;
  name_zh: string;
  group: number | null;
  unit: ProductUnit;
  weight_per_carton_kg: string;
  carton_length_mm: number | null;
  carton_width_mm: number | null;
  carton_height_mm: number | null;
  hs_code: string;
  is_active: boolean;
  purchase_price: string;
  sales_price: string;
  currency: string;
  description: string;
  barcode: string;
  visma_code: string;
}

function initialValues(product: Product | undefined): ProductFormValues {
  return {
    article_number: product?.article_number ?? '',
    name: product?.name ?? '',
    name_zh: product?.name_zh ?? '',
    group: product?.group ?? null,
    unit: product?.unit ?? 'pcs',
    weight_per_carton_kg: product?.weight_per_carton_kg ?? '',
    carton_length_mm: product?.carton_length_mm ?? null,
    carton_width_mm: product?.carton_width_mm ?? null,
    carton_height_mm: product?.carton_height_mm ?? null,
    hs_code: product?.hs_code ?? '',
    is_active: product?.is_active ?? true,
    purchase_price: product?.purchase_price ?? '',
    sales_price: product?.sales_price ?? '',
    currency: product?.currency ?? 'EUR',
    description: product?.description ?? '',
    barcode: product?.barcode ?? '',
    visma_code: product?.visma_code ?? '',
  };
}

function toInput(values: ProductFormValues): ProductInput {
  return {
    ...values,
    article_number: values.article_number.trim(),
    name: values.name.trim(),
    name_zh: values.name_zh.trim(),
    group: values.group ?? null,
    weight_per_carton_kg: toDecimalString(values.weight_per_carton_kg),
    purchase_price: toDecimalString(values.purchase_price),
    sales_price: toDecimalString(values.sales_price),
    hs_code: normalizeHsCode(values.hs_code ?? ''),
    barcode: (values.barcode ?? '').replace(/\s/g, ''),
  };
}

interface Props {
  product?: Product;
  onSaved: (product: Product) => void;
  onCancel: () => void;
}

/** Create or edit a product: client checks mirror the server's, server errors land on their fields. */
export function ProductForm({ product, onSaved, onCancel }: Props) {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const save = useSaveProduct(product?.id);
  const [dirty, setDirty] = useState(false);
  const [leaving, setLeaving] = useState(false);
  useUnsavedChangesGuard(dirty && !leaving);

  const { form, onFinish, submitting, formError } = useApiForm<ProductFormValues, Product>({
    submit: (values) => save.mutateAsync(toInput(values)),
    onSuccess: (saved) => {
      setLeaving(true);
      setDirty(false);
      void message.success(t('form.saved'));
      // Navigate after the guard has seen "not dirty".
      window.setTimeout(() => onSaved(saved), 0);
    },
  });

  const currencies = useMemo(() => currencyCodes().map((code) => ({ value: code, label: code })), []);
  const decimalRule = (places: number, min: 'positive' | 'zero'): Rule => ({
    validator: (_rule, value: string | undefined) => {
      if (!value) return Promise.resolve();
      if (!isDecimal(value, places)) return Promise.reject(new Error(t('validation.decimal', { places })));
      if (min === 'positive' && Number(value.replace(',', '.')) <= 0) return Promise.reject(new Error(t('validation.weightPositive')));
      return Promise.resolve();
    },
  });
  const required = { required: true, whitespace: true, message: t('validation.required') };
  const dimension = { type: 'integer' as const, min: 1, max: 10000, message: t('validation.dimension') };

  return (
    <Form<ProductFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues(product)}
      onFinish={onFinish}
      onValuesChange={() => setDirty(true)}
      scrollToFirstError
      data-testid="product-form"
    >
      <Flex vertical gap="middle">
        <Card title={t('form.sections.basics')}>
          <Row gutter={16}>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="article_number" label={t('fields.article_number')} rules={[required, { max: 64, message: t('validation.max', { max: 64 }) }]}>
                <Input autoFocus={!product} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="group" label={t('fields.group')}>
                <GroupTreeSelect />
              </Form.Item>
            </Col>
            <Col xs={12} md={6} lg={4}>
              <Form.Item name="unit" label={t('fields.unit')} rules={[{ required: true, message: t('validation.required') }]}>
                <Select options={PRODUCT_UNITS.map((unit) => ({ value: unit, label: t(`units.${unit}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6} lg={4}>
              <Form.Item name="is_active" label={t('fields.is_active')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="name" label={t('fields.name')} rules={[required, { max: 300, message: t('validation.max', { max: 300 }) }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="name_zh" label={t('fields.name_zh')} rules={[{ max: 300, message: t('validation.max', { max: 300 }) }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="description" label={t('fields.description')}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title={t('form.sections.carton')}>
          <Row gutter={16}>
            <Col xs={24} md={12} lg={6}>
              <Form.Item
                name="weight_per_carton_kg"
                label={t('fields.weight_per_carton_kg')}
                tooltip={t('form.weightHint')}
                rules={[decimalRule(3, 'positive')]}
              >
                <Input inputMode="decimal" suffix="kg" />
              </Form.Item>
            </Col>
            <Col xs={8} md={4} lg={3}>
              <Form.Item name="carton_length_mm" label={t('fields.carton_length_mm')} rules={[dimension]}>
                <InputNumber min={1} max={10000} precision={0} className={styles.fullWidth} />
              </Form.Item>
            </Col>
            <Col xs={8} md={4} lg={3}>
              <Form.Item name="carton_width_mm" label={t('fields.carton_width_mm')} rules={[dimension]}>
                <InputNumber min={1} max={10000} precision={0} className={styles.fullWidth} />
              </Form.Item>
            </Col>
            <Col xs={8} md={4} lg={3}>
              <Form.Item name="carton_height_mm" label={t('fields.carton_height_mm')} rules={[dimension]}>
                <InputNumber min={1} max={10000} precision={0} className={styles.fullWidth} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={4}>
              <Form.Item
                name="hs_code"
                label={t('fields.hs_code')}
                tooltip={t('form.hsHint')}
                rules={[
                  {
                    validator: (_rule, value: string | undefined) =>
                      !value || isValidHsCode(value) ? Promise.resolve() : Promise.reject(new Error(t('validation.hsCode'))),
                  },
                ]}
              >
                <Input inputMode="numeric" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={5}>
              <Form.Item
                name="barcode"
                label={t('fields.barcode')}
                rules={[
                  {
                    validator: (_rule, value: string | undefined) => {
                      const problem = barcodeProblem(value ?? '');
                      return problem ? Promise.reject(new Error(t(`validation.barcode.${problem}`))) : Promise.resolve();
                    },
                  },
                ]}
              >
                <Input inputMode="numeric" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title={t('form.sections.prices')}>
          <Row gutter={16}>
            <Col xs={12} md={6}>
              <Form.Item name="purchase_price" label={t('fields.purchase_price')} rules={[decimalRule(4, 'zero')]}>
                <Input inputMode="decimal" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="sales_price" label={t('fields.sales_price')} rules={[decimalRule(4, 'zero')]}>
                <Input inputMode="decimal" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="currency" label={t('fields.currency')} rules={[{ required: true, message: t('validation.required') }]}>
                <Select showSearch options={currencies} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="visma_code" label={t('fields.visma_code')} rules={[{ max: 50, message: t('validation.max', { max: 50 }) }]}>
                <Input />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
        <Flex justify="end" gap="small">
          <Button onClick={onCancel}>{t('actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="product-save">
            {t('actions.save')}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}
