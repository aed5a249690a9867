import { CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Divider, Drawer, Flex, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { useConfirmDiscard, useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useDeleteCustomer, useSaveCustomer } from '../api/customers';
import type { Customer, CustomerInput } from '../api/types';
import { countryOptions, currencyOptions, flattenFieldErrors } from '../codes';
import { useMayPermission } from '@/shared/session/permissions';
import { CUSTOMER_PERMS } from '../permissions';
import styles from './customers.module.css';

type FormValues = CustomerInput;

const EMPTY: FormValues = {
  number: '',
  name: '',
  email: '',
  phone: '',
  vat_id: '',
  visma_code: '',
  currency: 'EUR',
  payment_terms_days: 30,
  billing_street: '',
  billing_post_code: '',
  billing_city: '',
  billing_country: '',
  delivery_street: '',
  delivery_post_code: '',
  delivery_city: '',
  delivery_country: '',
  is_active: true,
  notes: '',
  contacts: [],
};

function toFormValues(customer: Customer | undefined): FormValues {
  if (!customer) return EMPTY;
  const { id: _id, created_at: _created, updated_at: _updated, ...values } = customer;
  return values;
}

function clean(values: FormValues): CustomerInput {
  return {
    ...values,
    number: values.number.trim(),
    name: values.name.trim(),
    billing_country: values.billing_country ?? '',
    delivery_country: values.delivery_country ?? '',
    contacts: (values.contacts ?? []).map((contact) => ({
      id: contact.id ?? null,
      name: (contact.name ?? '').trim(),
      role: contact.role ?? '',
      email: (contact.email ?? '').trim(),
      phone: contact.phone ?? '',
    })),
  };
}

interface Props {
  /** The customer to edit; undefined creates a new one. */
  customer?: Customer;
  onClose: () => void;
}

/** Create or edit a customer with addresses and contacts; closing with unsaved changes asks first. */
export function CustomerFormDrawer({ customer, onClose }: Props) {
  const { t, i18n } = useTranslation('customers');
  const { message } = App.useApp();
  const narrow = useMediaQuery('(max-width: 760px)');
  const save = useSaveCustomer(customer?.id);
  const remove = useDeleteCustomer();
  const mayDelete = useMayPermission(CUSTOMER_PERMS.delete);
  const mayChange = useMayPermission(customer ? CUSTOMER_PERMS.change : CUSTOMER_PERMS.add);
  const [dirty, setDirty] = useState(false);
  const confirmDiscard = useConfirmDiscard();
  useUnsavedChangesGuard(dirty);

  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const currencies = useMemo(() => currencyOptions(), []);

  const { form, onFinish, submitting, formError } = useApiForm<FormValues, Customer>({
    submit: async (values) => {
      try {
        return await save.mutateAsync(clean(values));
      } catch (error) {
        // Contact errors arrive nested ({contacts: {"0": {...}}}): put each on its field.
        if (isApiError(error) && error.data) form.setFields(flattenFieldErrors(error.data) as Parameters<typeof form.setFields>[0]);
        throw error;
      }
    },
    onSuccess: () => {
      setDirty(false);
      void message.success(t('form.saved'));
      onClose();
    },
  });

  const close = () =>
    confirmDiscard(dirty, () => {
      setDirty(false);
      onClose();
    });

  const copyBilling = () => {
    const values = form.getFieldsValue();
    form.setFieldsValue({
      delivery_street: values.billing_street,
      delivery_post_code: values.billing_post_code,
      delivery_city: values.billing_city,
      delivery_country: values.billing_country,
    });
    setDirty(true);
  };

  const required = { required: true, whitespace: true, message: t('validation.required') };
  const max = (length: number) => ({ max: length, message: t('validation.max', { max: length }) });
  const email = { type: 'email' as const, message: t('validation.email') };
  const countrySelect = (
    <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={countries} placeholder={t('form.chooseCountry')} />
  );

  return (
    <Drawer
      open
      onClose={close}
      title={customer ? t('form.editTitle', { name: customer.name }) : t('form.createTitle')}
      size={narrow ? '100%' : 760}
      destroyOnHidden
      mask={{ closable: false }}
      extra={
        customer && mayDelete ? (
          <ConfirmDelete
            itemLabel={customer.name}
            onConfirm={async () => {
              await remove.mutateAsync(customer.id);
              setDirty(false);
              onClose();
            }}
          >
            <Button danger icon={<DeleteOutlined />} data-testid="customer-delete">
              {t('actions.delete')}
            </Button>
          </ConfirmDelete>
        ) : null
      }
      footer={
        <Flex justify="end" gap="small">
          <Button onClick={close}>{t('actions.cancel')}</Button>
          <Button type="primary" loading={submitting} disabled={!mayChange} onClick={() => form.submit()} data-testid="customer-save">
            {t('actions.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={toFormValues(customer)}
        onFinish={onFinish}
        onValuesChange={() => setDirty(true)}
        scrollToFirstError
        disabled={!mayChange}
        data-testid="customer-form"
      >
        <Row gutter={16}>
          <Col xs={24} sm={8}>
            <Form.Item name="number" label={t('fields.number')} rules={[required, max(50)]}>
              <Input autoFocus={!customer} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={16}>
            <Form.Item name="name" label={t('fields.name')} rules={[required, max(200)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="email" label={t('fields.email')} rules={[email]}>
              <Input type="email" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="phone" label={t('fields.phone')} rules={[max(50)]}>
              <Input type="tel" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="currency" label={t('fields.currency')} rules={[{ required: true, message: t('validation.required') }]}>
              <Select showSearch options={currencies} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="payment_terms_days"
              label={t('fields.payment_terms_days')}
              rules={[{ required: true, type: 'integer', min: 0, max: 365, message: t('validation.terms') }]}
            >
              <InputNumber min={0} max={365} precision={0} className={styles.fullWidth} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="vat_id" label={t('fields.vat_id')} rules={[max(30)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="visma_code" label={t('fields.visma_code')} rules={[max(50)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="is_active" label={t('fields.is_active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">{t('form.billing')}</Divider>
        <Row gutter={16}>
          <Col xs={24}>
            <Form.Item name="billing_street" label={t('fields.street')} rules={[max(200)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="billing_post_code" label={t('fields.post_code')} rules={[max(20)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={16} sm={8}>
            <Form.Item name="billing_city" label={t('fields.city')} rules={[max(100)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="billing_country" label={t('fields.country')}>
              {countrySelect}
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">{t('form.delivery')}</Divider>
        <Button size="small" icon={<CopyOutlined />} onClick={copyBilling} className={styles.contact}>
          {t('form.sameAsBilling')}
        </Button>
        <Row gutter={16}>
          <Col xs={24}>
            <Form.Item name="delivery_street" label={t('fields.street')} rules={[max(200)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="delivery_post_code" label={t('fields.post_code')} rules={[max(20)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={16} sm={8}>
            <Form.Item name="delivery_city" label={t('fields.city')} rules={[max(100)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="delivery_country" label={t('fields.country')}>
              {countrySelect}
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">{t('form.contacts')}</Divider>
        <Form.List name="contacts">
          {(fields, { add, remove: removeContact }) => (
            <>
              {fields.length === 0 ? <Typography.Paragraph type="secondary">{t('form.noContacts')}</Typography.Paragraph> : null}
              {fields.map((field, index) => (
                <Card
                  key={field.key}
                  size="small"
                  className={styles.contact}
                  title={index === 0 ? t('form.mainContact') : t('form.contactN', { n: index + 1 })}
                  extra={
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('form.removeContact')}
                      onClick={() => {
                        removeContact(field.name);
                        setDirty(true);
                      }}
                    />
                  }
                >
                  <Form.Item name={[field.name, 'id']} hidden>
                    <Input />
                  </Form.Item>
                  <Row gutter={12}>
                    <Col xs={24} sm={12}>
                      <Form.Item name={[field.name, 'name']} label={t('fields.contactName')} rules={[required, max(200)]}>
                        <Input />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={12}>
                      <Form.Item name={[field.name, 'role']} label={t('fields.contactRole')} rules={[max(100)]}>
                        <Input />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={12}>
                      <Form.Item name={[field.name, 'email']} label={t('fields.email')} rules={[email]}>
                        <Input type="email" />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={12}>
                      <Form.Item name={[field.name, 'phone']} label={t('fields.phone')} rules={[max(50)]}>
                        <Input type="tel" />
                      </Form.Item>
                    </Col>
                  </Row>
                </Card>
              ))}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                onClick={() => {
                  add({ id: null, name: '', role: '', email: '', phone: '' });
                  setDirty(true);
                }}
              >
                {t('form.addContact')}
              </Button>
            </>
          )}
        </Form.List>

        <Divider titlePlacement="start">{t('fields.notes')}</Divider>
        <Form.Item name="notes">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} aria-label={t('fields.notes')} />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Drawer>
  );
}
