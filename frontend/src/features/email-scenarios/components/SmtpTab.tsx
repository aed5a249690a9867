import { ApiOutlined, DeleteOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Form, Input, InputNumber, Select, Spin, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useErrorText } from '@/shared/errors/errorText';
import { deleteSmtp, saveSmtp, type SmtpSettings, type SmtpSettingsInput, testSmtp, useInvalidateEmail, useSmtp } from '../api/notifications';

type FormValues = SmtpSettingsInput & { password?: string };

/** The company's own outgoing mail server; without it, the installation's server (or the local outbox). */
export function SmtpTab() {
  const { t } = useTranslation('email');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const query = useSmtp();
  const invalidate = useInvalidateEmail();
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const missing = query.isError && isApiError(query.error) && query.error.status === 404;
  const stored: SmtpSettings | undefined = query.data;
  const { form, onFinish, submitting, formError } = useApiForm<FormValues, SmtpSettings>({
    submit: (values) => saveSmtp({ ...values, password: values.password || undefined }),
    onSuccess: () => {
      form.setFieldValue('password', '');
      void message.success(t('smtp.saved'));
      void invalidate();
    },
  });

  if (query.isPending) return <Spin />;
  if (query.isError && !missing) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;

  const runTest = async () => {
    setTesting(true);
    setTestResult(null);
    try {
      const values = form.getFieldsValue(true) as FormValues;
      setTestResult(await testSmtp({ ...values, password: values.password || undefined }));
    } catch (error) {
      setTestResult({ ok: false, message: errorText(error) });
    } finally {
      setTesting(false);
    }
  };
  const required = { required: true, whitespace: true, message: t('validation.required') };

  return (
    <Card>
      <Alert type="info" showIcon title={stored ? t('smtp.ownServer') : t('smtp.noOwnServer')} style={{ marginBottom: 16 }} />
      {stored?.unreadable_secrets?.includes('password') ? (
        <Alert type="warning" showIcon title={t('smtp.passwordUnreadable')} style={{ marginBottom: 16 }} data-testid="smtp-password-unreadable" />
      ) : null}
      <Form<FormValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={stored ? { ...stored, password: '' } : { enabled: true, port: 587, security: 'starttls', timeout: 20 }}
        onFinish={onFinish}
      >
        <Form.Item name="enabled" label={t('smtp.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Flex gap="small" wrap>
          <Form.Item name="host" label={t('smtp.host')} rules={[required]} style={{ flex: 3, minWidth: 220 }}>
            <Input maxLength={255} placeholder={t('placeholders.host')} autoComplete="off" />
          </Form.Item>
          <Form.Item name="port" label={t('smtp.port')} rules={[{ required: true, message: t('validation.required') }]}>
            <InputNumber min={1} max={65535} precision={0} />
          </Form.Item>
          <Form.Item name="security" label={t('smtp.security')} style={{ minWidth: 140 }}>
            <Select
              options={[
                { value: 'starttls', label: 'STARTTLS' },
                { value: 'ssl', label: 'SSL/TLS' },
                { value: 'none', label: t('smtp.none') },
              ]}
            />
          </Form.Item>
        </Flex>
        <Flex gap="small" wrap>
          <Form.Item name="username" label={t('smtp.username')} style={{ flex: 1, minWidth: 200 }}>
            <Input maxLength={255} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('smtp.password')}
            extra={stored?.has_password ? t('smtp.passwordStored') : undefined}
            style={{ flex: 1, minWidth: 200 }}
          >
            <Input.Password maxLength={500} autoComplete="new-password" placeholder={stored?.has_password ? '••••••••' : undefined} />
          </Form.Item>
        </Flex>
        <Flex gap="small" wrap>
          <Form.Item name="from_email" label={t('smtp.fromEmail')} rules={[required, { type: 'email', message: t('validation.email') }]} style={{ flex: 1, minWidth: 220 }}>
            <Input maxLength={254} />
          </Form.Item>
          <Form.Item name="from_name" label={t('smtp.fromName')} style={{ flex: 1, minWidth: 200 }}>
            <Input maxLength={200} />
          </Form.Item>
        </Flex>
        <Flex gap="small" wrap>
          <Form.Item name="reply_to" label={t('smtp.replyTo')} rules={[{ type: 'email', message: t('validation.email') }]} style={{ flex: 1, minWidth: 220 }}>
            <Input maxLength={254} />
          </Form.Item>
          <Form.Item name="timeout" label={t('smtp.timeout')}>
            <InputNumber min={1} max={120} precision={0} />
          </Form.Item>
        </Flex>
        {formError ? <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} /> : null}
        {testResult ? (
          <Alert type={testResult.ok ? 'success' : 'error'} showIcon title={testResult.message} style={{ marginBottom: 16 }} data-testid="smtp-test-result" />
        ) : null}
        <Flex gap="small" wrap>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {tc('actions.save')}
          </Button>
          <Button icon={<ApiOutlined />} onClick={() => void runTest()} loading={testing}>
            {t('smtp.test')}
          </Button>
          {stored ? (
            <ConfirmDelete
              itemLabel={stored.host}
              onConfirm={async () => {
                await deleteSmtp();
                form.resetFields();
                await invalidate();
              }}
            >
              <Button danger icon={<DeleteOutlined />}>
                {t('smtp.remove')}
              </Button>
            </ConfirmDelete>
          ) : null}
        </Flex>
      </Form>
    </Card>
  );
}
