import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useMayPermission } from '@/shared/session/permissions';
import { usePeppolSettings, useSavePeppolSettings, type PeppolSettings } from '../api/peppolSettings';
import styles from './CompanySettingsForm.module.css';

interface Values {
  enabled: boolean;
  endpoint_url: string;
  api_key: string;
  sender_id: string;
  timeout: number;
}

/** Company settings, section "Peppol access point" (the company's administrator: who holds
 * salesorders.view_peppolsettings): the access point API's URL, its API key (write-only, stored
 * encrypted), the company's sender participant ID and the timeout. Invoices are then sent from their page. */
export function PeppolSettingsCard() {
  const mayView = useMayPermission('salesorders.view_peppolsettings');
  const { t, i18n } = useTranslation('company');
  const query = usePeppolSettings(mayView);
  if (!mayView) return null;
  if (query.isPending) {
    return (
      <Card title={t('peppol.title')} className={styles.section}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card title={t('peppol.title')} className={styles.section}>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  return <PeppolSettingsForm key={`${query.data?.updated_at ?? 'new'}-${i18n.language}`} settings={query.data} />;
}

function PeppolSettingsForm({ settings }: { settings: PeppolSettings | null }) {
  const { t } = useTranslation('company');
  const { message } = App.useApp();
  const save = useSavePeppolSettings();
  const mayChange = useMayPermission('salesorders.change_peppolsettings');
  const mayAdd = useMayPermission('salesorders.add_peppolsettings');
  const editable = settings ? mayChange : mayAdd;
  const { form, onFinish, submitting, formError } = useApiForm<Values, PeppolSettings>({
    submit: ({ api_key, ...values }) => save.mutateAsync({ ...values, clear_api_key: false, ...(api_key ? { api_key } : {}) }),
    onSuccess: () => {
      form.setFieldValue('api_key', '');
      void message.success(t('peppol.saved'));
    },
  });
  return (
    <Card title={t('peppol.title')} className={styles.section} data-testid="peppol-settings">
      <Typography.Paragraph type="secondary">{t('peppol.help')}</Typography.Paragraph>
      {settings?.unreadable_secrets.length ? <Alert type="warning" showIcon title={t('peppol.unreadable')} className={styles.section} /> : null}
      <Form<Values>
        form={form}
        layout="vertical"
        disabled={!editable}
        onFinish={(values) => void onFinish(values)}
        initialValues={{
          enabled: settings?.enabled ?? true,
          endpoint_url: settings?.endpoint_url ?? '',
          api_key: '',
          sender_id: settings?.sender_id ?? '',
          timeout: settings?.timeout ?? 20,
        }}
        data-testid="peppol-settings-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="endpoint_url"
              label={t('peppol.endpointUrl')}
              extra={t('peppol.endpointUrlHelp')}
              rules={[
                { required: true, message: t('peppol.required') },
                { max: 500, message: t('validation.maxLength', { count: 500 }) },
              ]}
            >
              <Input autoComplete="off" inputMode="url" placeholder={t('peppol.endpointPlaceholder')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="api_key"
              label={t('peppol.apiKey')}
              extra={settings?.has_api_key ? t('peppol.apiKeyStored') : t('peppol.apiKeyMissing')}
              rules={[{ max: 2000, message: t('validation.maxLength', { count: 2000 }) }]}
            >
              <Input.Password autoComplete="new-password" placeholder={settings?.has_api_key ? '••••••••' : undefined} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="sender_id"
              label={t('peppol.senderId')}
              extra={t('peppol.senderIdHelp')}
              rules={[{ required: true, message: t('peppol.required') }]}
            >
              <Input autoComplete="off" placeholder={t('peppol.senderPlaceholder')} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="timeout" label={t('peppol.timeout')}>
              <InputNumber min={1} max={120} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="enabled" label={t('peppol.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        {formError ? <Alert type="error" showIcon title={formError} className={styles.section} /> : null}
        {editable ? (
          <Flex justify="flex-end" gap="small" wrap>
            <Button type="primary" htmlType="submit" loading={submitting} data-testid="peppol-save">
              {t('peppol.save')}
            </Button>
          </Flex>
        ) : null}
      </Form>
    </Card>
  );
}
