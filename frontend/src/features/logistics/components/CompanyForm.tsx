import { Alert, App, Button, Col, Flex, Form, Input, Row } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useSaveCompany } from '../api/logistics';
import type { ShipmentCompany, ShipmentCompanyInput } from '../api/types';
import { check } from './check';
import { trackingTemplateProblem } from './validators';
import styles from './logistics.module.css';
import { paths } from '@/shared/routing/paths';

interface Props {
  company?: ShipmentCompany;
  /** Cancel: e.g. back to the list, or out of edit mode. */
  onCancel: () => void;
  /** After a save (once the unsaved-changes guard has let go); defaults to the company's page. */
  onSaved?: (saved: ShipmentCompany) => void;
}

const EMPTY: ShipmentCompanyInput = {
  name: '',
  contact_name: '',
  email: '',
  phone: '',
  website: '',
  tracking_url_template: '',
};

/** Create or edit a shipment company; after saving, its page (the route uses the name) unless `onSaved`
 * says otherwise. */
export function CompanyForm({ company, onCancel, onSaved }: Props) {
  const { t } = useTranslation('logistics');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const save = useSaveCompany(company?.id);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState<ShipmentCompany | null>(null);
  useUnsavedChangesGuard(dirty && saved === null);

  const { form, onFinish, submitting, formError } = useApiForm<ShipmentCompanyInput, ShipmentCompany>({
    submit: (values) => save.mutateAsync({ ...EMPTY, ...values, name: values.name.trim() }),
    onSuccess: (saved) => {
      void message.success(t('companies.saved', { name: saved.name }));
      setDirty(false);
      setSaved(saved);
    },
  });

  useEffect(() => {
    if (saved === null) return;
    if (onSaved) onSaved(saved);
    else void navigate(paths.shipmentCompany(saved.name), { replace: company !== undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- act once the save is seen by the guard
  }, [saved]);

  return (
    <Form<ShipmentCompanyInput>
      form={form}
      layout="vertical"
      initialValues={company ?? EMPTY}
      onFinish={onFinish}
      onValuesChange={() => {
        setDirty(true);
        setSaved(null);
      }}
      className={styles.formCard}
      data-testid="company-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="name"
            label={t('companies.fields.name')}
            rules={[
              { required: true, whitespace: true, message: t('form.required') },
              { max: 200 },
              { pattern: /^[^/]*$/, message: t('companies.noSlash') },
            ]}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="contact_name" label={t('companies.fields.contact_name')} rules={[{ max: 200 }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="email" label={t('companies.fields.email')} rules={[{ type: 'email', message: t('companies.emailInvalid') }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="phone" label={t('companies.fields.phone')} rules={[{ max: 50 }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="website" label={t('companies.fields.website')} rules={[{ type: 'url', message: t('companies.urlInvalid') }]}>
            <Input placeholder={t('companies.websitePlaceholder')} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item
            name="tracking_url_template"
            label={t('companies.fields.tracking_url_template')}
            extra={t('companies.templateHint')}
            rules={[
              { max: 500 },
              {
                validator: (_: unknown, value: string | undefined) => {
                  const problem = trackingTemplateProblem(value ?? '');
                  return check(problem ? t(`companies.template.${problem}`) : null);
                },
              },
            ]}
          >
            <Input placeholder={t('companies.templatePlaceholder')} />
          </Form.Item>
        </Col>
      </Row>
      {formError ? <Alert type="error" showIcon title={formError} className={styles.section} /> : null}
      <Flex gap="small" justify="flex-end">
        <Button onClick={onCancel} data-testid="company-cancel">
          {t('form.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="company-save">
          {t('form.save')}
        </Button>
      </Flex>
    </Form>
  );
}
