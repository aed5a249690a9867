import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Col, Flex, Form, Input, Modal, Row, Select, Switch } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { createParentVendor, deleteParentVendor, updateParentVendor } from '../api/suppliers';
import type { ParentVendor, ParentVendorInput } from '../api/types';
import { COUNTRY_CODES, countryOptions } from '@/shared/countries/countries';
import { useConfirmDiscard } from '@/shared/hooks/useUnsavedChangesGuard';

interface Props {
  /** The vendor to edit, `null` for a new one; the modal is open when not undefined. */
  vendor: ParentVendor | null | undefined;
  readOnly?: boolean;
  canDelete?: boolean;
  onClose: () => void;
  onSaved: () => void;
}

const EMPTY: ParentVendorInput = { name: '', cname: '', code: '', contact: '', email: '', phone: '', country: 'CN', is_active: true };

/** Create or edit a parent vendor: name and Chinese name side by side, contact, country. */
export function ParentVendorModal({ vendor, readOnly, canDelete, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation('suppliers');
  const [dirty, setDirty] = useState(false);
  const confirmDiscard = useConfirmDiscard();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const { form, onFinish, submitting, formError } = useApiForm<ParentVendorInput>({
    submit: (values) => {
      const body = { ...values, name: values.name.trim(), cname: (values.cname ?? '').trim(), code: (values.code ?? '').trim().toUpperCase(), country: values.country ?? '' };
      return vendor ? updateParentVendor(vendor.id, body) : createParentVendor(body);
    },
    onSuccess: () => {
      setDirty(false);
      onSaved();
    },
  });
  const required = { required: true, whitespace: true, message: t('validation.required') };
  const max = (n: number) => ({ max: n, message: t('validation.maxLength', { count: n }) });

  const close = () =>
    confirmDiscard(dirty, () => {
      setDirty(false);
      onClose();
    });

  return (
    <Modal
      open={vendor !== undefined}
      title={vendor ? t('vendors.editTitle', { name: vendor.name }) : t('vendors.createTitle')}
      onCancel={close}
      destroyOnHidden
      width={720}
      footer={
        readOnly ? (
          <Button onClick={onClose}>{t('common:actions.close')}</Button>
        ) : (
          <Flex justify="space-between" wrap gap="small">
            <div>
              {vendor && canDelete ? (
                <ConfirmDelete
                  itemLabel={vendor.name}
                  onConfirm={async () => {
                    await deleteParentVendor(vendor.id);
                    setDirty(false);
                    onSaved();
                  }}
                >
                  <Button danger icon={<DeleteOutlined />}>
                    {t('detail.delete')}
                  </Button>
                </ConfirmDelete>
              ) : null}
            </div>
            <Flex gap="small">
              <Button onClick={close}>{t('common:actions.cancel')}</Button>
              <Button type="primary" loading={submitting} onClick={() => form.submit()}>
                {t('common:actions.save')}
              </Button>
            </Flex>
          </Flex>
        )
      }
    >
      <Form<ParentVendorInput>
        form={form}
        layout="vertical"
        initialValues={vendor ?? EMPTY}
        disabled={readOnly}
        onFinish={(values) => void onFinish(values)}
        onValuesChange={() => setDirty(true)}
        preserve={false}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('fields.name')} rules={[required, max(200)]}>
              <Input autoFocus />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="cname" label={t('fields.cname')} rules={[max(200)]}>
              <Input lang="zh" />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name="code" label={t('fields.code')} rules={[max(50)]} normalize={(v: string) => v.toUpperCase()}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item
              name="country"
              label={t('fields.country')}
              rules={[{ validator: (_r, value: string | undefined) => (!value || COUNTRY_CODES.includes(value) ? Promise.resolve() : Promise.reject(new Error(t('validation.country')))) }]}
            >
              <Select showSearch={{ optionFilterProp: 'label' }} allowClear options={countries} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="is_active" label={t('fields.isActive')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="contact" label={t('fields.contact')} rules={[max(200)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="email" label={t('fields.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
              <Input type="email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="phone" label={t('fields.phone')} rules={[max(50)]}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
