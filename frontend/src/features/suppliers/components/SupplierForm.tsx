import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, AutoComplete, Button, Card, Col, Flex, Form, Input, Row, Select, Switch } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useParentVendorOptions } from '../api/suppliers';
import type { Supplier, SupplierInput } from '../api/types';
import { COUNTRY_CODES, countryOptions } from '@/shared/countries/countries';
import { COMMON_CURRENCIES } from '../currencies';
import styles from './SupplierForm.module.css';

export const MAX_CONTACTS = 20;

export type SupplierFormValues = SupplierInput;

export const emptySupplier: Partial<SupplierFormValues> = {
  number: '',
  name: '',
  country: 'CN',
  currency: 'EUR',
  is_active: true,
  contacts: [],
  address: '',
  email: '',
  phone: '',
  visma_code: '',
  payment_terms: '',
  notes: '',
};

export function supplierToValues(supplier: Supplier): SupplierFormValues {
  const { id: _id, parent_vendor_detail: _pv, created_at: _c, updated_at: _u, ...values } = supplier;
  return values;
}

interface Props {
  initialValues: Partial<SupplierFormValues>;
  onSubmit: (values: SupplierFormValues) => Promise<unknown>;
  onSaved?: () => void;
  onDirtyChange?: (dirty: boolean) => void;
  readOnly?: boolean;
  submitLabel: string;
  /** Extra buttons next to the submit button (e.g. delete). */
  extraActions?: ReactNode;
}

/** The supplier's fields with the server's rules mirrored on the client; server errors land on fields. */
export function SupplierForm({ initialValues, onSubmit, onSaved, onDirtyChange, readOnly, submitLabel, extraActions }: Props) {
  const { t, i18n } = useTranslation('suppliers');
  const vendors = useParentVendorOptions();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const { form, onFinish, submitting, formError } = useApiForm<SupplierFormValues>({
    submit: (values) =>
      onSubmit({
        ...values,
        number: values.number.trim(),
        name: values.name.trim(),
        country: values.country ?? '',
        currency: (values.currency || '').toUpperCase(),
        contacts: (values.contacts ?? []).map((c) => ({ name: c.name.trim(), role: c.role ?? '', email: c.email ?? '', phone: c.phone ?? '' })),
      }),
    onSuccess: () => {
      onDirtyChange?.(false);
      onSaved?.();
    },
  });

  const vendorOptions = (vendors.data ?? []).map((v) => ({
    value: v.id,
    label: i18n.language === 'zh' && v.cname ? `${v.cname} (${v.name})` : v.cname ? `${v.name} (${v.cname})` : v.name,
  }));
  const required = { required: true, whitespace: true, message: t('validation.required') };
  const max = (n: number) => ({ max: n, message: t('validation.maxLength', { count: n }) });

  return (
    <Form<SupplierFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={(values) => void onFinish(values)}
      onValuesChange={() => onDirtyChange?.(true)}
      disabled={readOnly}
      scrollToFirstError
      className={styles.form}
    >
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="number" label={t('fields.number')} rules={[required, max(50)]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={16}>
          <Form.Item name="name" label={t('fields.name')} rules={[required, max(200)]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="parent_vendor" label={t('fields.parentVendor')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={vendorOptions} loading={vendors.isLoading} placeholder={t('placeholders.parentVendor')} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="country"
            label={t('fields.country')}
            rules={[{ validator: (_r, value: string | undefined) => (!value || COUNTRY_CODES.includes(value) ? Promise.resolve() : Promise.reject(new Error(t('validation.country')))) }]}
          >
            <Select showSearch={{ optionFilterProp: 'label' }} allowClear options={countries} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="currency"
            label={t('fields.currency')}
            normalize={(value: string | undefined) => (value ?? '').toUpperCase()}
            rules={[{ required: true, message: t('validation.required') }, { pattern: /^[A-Z]{3}$/, message: t('validation.currency') }]}
          >
            <AutoComplete options={COMMON_CURRENCIES.map((c) => ({ value: c }))} maxLength={3} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="address" label={t('fields.address')} rules={[max(500)]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="email" label={t('fields.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
            <Input type="email" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="phone" label={t('fields.phone')} rules={[max(50)]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="visma_code" label={t('fields.vismaCode')} rules={[max(64)]} tooltip={t('hints.vismaCode')}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item name="payment_terms" label={t('fields.paymentTerms')} rules={[max(100)]}>
            <Input placeholder={t('placeholders.paymentTerms')} />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item name="is_active" label={t('fields.isActive')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>

      <Form.List
        name="contacts"
        rules={[{ validator: (_r, value: unknown[] | undefined) => ((value?.length ?? 0) <= MAX_CONTACTS ? Promise.resolve() : Promise.reject(new Error(t('validation.maxContacts', { count: MAX_CONTACTS })))) }]}
      >
        {(fields, { add, remove }, { errors }) => (
          <Form.Item label={t('fields.contacts')}>
            <Flex vertical gap="small">
              {fields.map((field) => (
                <Card key={field.key} size="small" className={styles.contact}>
                  <Row gutter={[8, 8]} align="middle">
                    <Col xs={24} md={6}>
                      <Form.Item name={[field.name, 'name']} rules={[required, max(200)]} className={styles.inline}>
                        <Input placeholder={t('contacts.name')} aria-label={t('contacts.name')} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={5}>
                      <Form.Item name={[field.name, 'role']} rules={[max(100)]} className={styles.inline}>
                        <Input placeholder={t('contacts.role')} aria-label={t('contacts.role')} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={7}>
                      <Form.Item name={[field.name, 'email']} rules={[{ type: 'email', message: t('validation.email') }]} className={styles.inline}>
                        <Input placeholder={t('contacts.email')} aria-label={t('contacts.email')} />
                      </Form.Item>
                    </Col>
                    <Col xs={20} md={5}>
                      <Form.Item name={[field.name, 'phone']} rules={[max(50)]} className={styles.inline}>
                        <Input placeholder={t('contacts.phone')} aria-label={t('contacts.phone')} />
                      </Form.Item>
                    </Col>
                    <Col xs={4} md={1}>
                      {!readOnly ? <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('contacts.remove')} /> : null}
                    </Col>
                  </Row>
                </Card>
              ))}
              {!readOnly ? (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', role: '', email: '', phone: '' })} disabled={fields.length >= MAX_CONTACTS}>
                  {t('contacts.add')}
                </Button>
              ) : fields.length === 0 ? (
                <span className={styles.muted}>{t('contacts.none')}</span>
              ) : null}
              <Form.ErrorList errors={errors} />
            </Flex>
          </Form.Item>
        )}
      </Form.List>

      <Form.Item name="notes" label={t('fields.notes')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} />
      </Form.Item>

      {formError ? <Alert type="error" showIcon title={formError} className={styles.alert} /> : null}
      {!readOnly ? (
        <Flex gap="small" justify="space-between" wrap>
          <div>{extraActions}</div>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Flex>
      ) : null}
    </Form>
  );
}
