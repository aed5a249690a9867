import { ApiOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Flex, Form, Input, Row, Select, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { useApiForm } from '@/shared/hooks/useApiForm';
import {
  useSaveTracesAccount,
  useTestTracesAccount,
  useTracesAccount,
  type TracesAccount,
  type TracesEnvironment,
} from '../api/tracesAccount';
import styles from './CompanySettingsForm.module.css';
import { formatDateTime } from '@/shared/utils/format';

interface Values {
  username: string;
  auth_key: string;
  client_id: string;
  environment: TracesEnvironment;
}

const ENVIRONMENTS: TracesEnvironment[] = ['acceptance', 'production'];

/** Company settings, section "Filing with TRACES": the web-service user name, the authentication key
 * (write-only: the server never returns it), the client id and the environment; "Test connection" calls
 * the EU information system's echo service with the saved credentials. */
export function TracesAccountCard() {
  const { t, i18n } = useTranslation('company');
  const query = useTracesAccount();
  if (query.isPending) {
    return (
      <Card title={t('traces.title')} className={styles.section}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card title={t('traces.title')} className={styles.section}>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  return <TracesAccountForm key={`${query.data.updated_at ?? 'new'}-${i18n.language}`} account={query.data} />;
}

function TracesAccountForm({ account }: { account: TracesAccount }) {
  const { t, i18n } = useTranslation('company');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const save = useSaveTracesAccount();
  const test = useTestTracesAccount();
  const editable = account.can_edit;
  const { form, onFinish, submitting, formError } = useApiForm<Values, TracesAccount>({
    submit: (values) => save.mutateAsync(values),
    onSuccess: () => {
      form.setFieldValue('auth_key', '');
      void message.success(t('traces.saved'));
    },
  });

  const runTest = async () => {
    try {
      const result = await test.mutateAsync();
      if (result.last_test_ok) void message.success(result.last_test_message);
      else void message.error(result.last_test_message);
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  return (
    <Card title={t('traces.title')} className={styles.section} data-testid="traces-account">
      <Typography.Paragraph type="secondary">{t('traces.help')}</Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        disabled={!editable}
        onFinish={(values) => void onFinish(values)}
        initialValues={{
          username: account.username ?? '',
          auth_key: '',
          client_id: account.client_id ?? '',
          environment: account.environment ?? 'acceptance',
        }}
        data-testid="traces-account-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="username" label={t('traces.username')} rules={[{ max: 200, message: t('validation.maxLength', { count: 200 }) }]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="auth_key"
              label={t('traces.authKey')}
              extra={account.has_auth_key ? t('traces.authKeyStored') : t('traces.authKeyMissing')}
              rules={[{ max: 500, message: t('validation.maxLength', { count: 500 }) }]}
            >
              <Input.Password autoComplete="new-password" placeholder={account.has_auth_key ? '••••••••' : undefined} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="client_id" label={t('traces.clientId')} extra={t('traces.clientIdHelp')} rules={[{ max: 100, message: t('validation.maxLength', { count: 100 }) }]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="environment" label={t('traces.environment')}>
              <Select options={ENVIRONMENTS.map((value) => ({ value, label: t(`traces.environments.${value}`) }))} data-testid="traces-environment" />
            </Form.Item>
          </Col>
        </Row>
        {account.last_test_at ? (
          <Alert
            type={account.last_test_ok ? 'success' : 'error'}
            showIcon
            className={styles.section}
            title={t('traces.lastTest', { when: formatDateTime(account.last_test_at, i18n.language) })}
            description={account.last_test_message}
            data-testid="traces-test-result"
          />
        ) : null}
        {formError ? <Alert type="error" showIcon title={formError} className={styles.section} /> : null}
        {editable ? (
          <Flex justify="flex-end" gap="small" wrap>
            <Button
              icon={<ApiOutlined />}
              onClick={() => void runTest()}
              loading={test.isPending}
              disabled={!account.username || !account.has_auth_key || !account.client_id}
              data-testid="traces-test"
            >
              {t('traces.test')}
            </Button>
            <Button type="primary" htmlType="submit" loading={submitting} data-testid="traces-save">
              {t('traces.save')}
            </Button>
          </Flex>
        ) : null}
      </Form>
    </Card>
  );
}
