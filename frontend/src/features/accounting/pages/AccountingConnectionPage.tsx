import { ApiOutlined, CloudUploadOutlined, EyeOutlined, LinkOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Empty, Flex, Form, Input, Popconfirm, Select, Spin, Switch, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useFormatters } from '@/shared/utils/format';
import {
  ACCOUNTING_PERMS,
  PROVIDER_DEFAULTS,
  type Connection,
  type ConnectionInput,
  type DryRun,
  type Provider,
  saveConnection,
  startAuthorization,
  startSync,
  testConnection,
  useConnection,
  useDryRun,
  useInvalidateAccounting,
  useMay,
  useRedirectUri,
} from '../api/accounting';
import { AccountingNav } from '../components/AccountingNav';
import { goTo } from '../navigation';

type FormValues = Omit<ConnectionInput, 'options' | 'clear_refresh_token'> & {
  documents_from?: Dayjs | null;
  unit_id?: string;
  coding_id?: string;
  default_terms_of_payment_id?: string;
  authorize_url?: string;
  pkce?: boolean;
};

function initialValues(stored: Connection | undefined): Partial<FormValues> {
  if (!stored) return { provider: 'visma_net', enabled: true, supplier_level: 'supplier', ...PROVIDER_DEFAULTS.visma_net };
  const { options, ...rest } = stored;
  return {
    ...rest,
    client_secret: '',
    refresh_token: '',
    documents_from: options?.documents_from ? dayjs(options.documents_from) : null,
    unit_id: options?.unit_id ?? '',
    coding_id: options?.coding_id ?? '',
    default_terms_of_payment_id: options?.default_terms_of_payment_id ?? '',
    authorize_url: options?.authorize_url ?? '',
    pkce: options?.pkce ?? true,
  };
}

function toInput(values: FormValues): Partial<ConnectionInput> {
  const { documents_from, unit_id, coding_id, default_terms_of_payment_id, authorize_url, pkce, client_secret, refresh_token, ...rest } = values;
  return {
    ...rest,
    client_secret: client_secret || undefined,
    refresh_token: refresh_token || undefined,
    clear_refresh_token: false,
    options: {
      documents_from: documents_from ? documents_from.format('YYYY-MM-DD') : null,
      unit_id: unit_id ?? '',
      coding_id: coding_id ?? '',
      default_terms_of_payment_id: default_terms_of_payment_id ?? '',
      authorize_url: authorize_url ?? '',
      pkce: pkce ?? true,
    },
  };
}

/**
 * The eAccounting consent flow: the redirect URI to register with Visma, and the button that asks the
 * server for Visma's authorization URL (a single-use state for this company and user) and goes there.
 */
function ConnectEAccounting({ saved, hasRefreshToken }: { saved: boolean; hasRefreshToken: boolean }) {
  const { t } = useTranslation('accounting');
  const errorText = useErrorText();
  const redirect = useRedirectUri(true);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const connect = async () => {
    setStarting(true);
    setError(null);
    try {
      const started = await startAuthorization();
      goTo(started.authorization_url);
    } catch (failure) {
      setError(errorText(failure));
      setStarting(false);
    }
  };
  return (
    <Card size="small" title={t('oauth.title')} style={{ marginBottom: 16 }} data-testid="eaccounting-connect">
      <Typography.Paragraph type="secondary">{t('oauth.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('oauth.redirectUri')}{' '}
        {redirect.data ? (
          <Typography.Text code copyable data-testid="redirect-uri">
            {redirect.data.redirect_uri}
          </Typography.Text>
        ) : redirect.isError ? (
          <Typography.Text type="danger">{errorText(redirect.error)}</Typography.Text>
        ) : (
          <Spin size="small" />
        )}
      </Typography.Paragraph>
      {hasRefreshToken ? <Alert type="success" showIcon title={t('oauth.connected')} style={{ marginBottom: 12 }} /> : null}
      {!saved ? <Alert type="info" showIcon title={t('oauth.saveFirst')} style={{ marginBottom: 12 }} /> : null}
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="connect-error" /> : null}
      <Button icon={<LinkOutlined />} onClick={() => void connect()} loading={starting} disabled={!saved} data-testid="connect-eaccounting">
        {hasRefreshToken ? t('oauth.reconnect') : t('oauth.connect')}
      </Button>
    </Card>
  );
}

function DryRunCard({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('accounting');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidateAccounting();
  const [shown, setShown] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const query = useDryRun(shown);
  const rows = query.data ? [...query.data.masters, ...query.data.documents] : [];
  const sync = async () => {
    setSyncing(true);
    try {
      const result = await startSync();
      void message.success(t('dryRun.queued', { count: result.queued }));
      await invalidate();
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setSyncing(false);
    }
  };
  return (
    <Card title={t('dryRun.title')} style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">{t('dryRun.intro')}</Typography.Paragraph>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <Button icon={<EyeOutlined />} onClick={() => (shown ? void query.refetch() : setShown(true))} loading={query.isFetching} data-testid="dry-run">
          {t('dryRun.show')}
        </Button>
        <Popconfirm title={t('dryRun.confirm')} onConfirm={() => void sync()} okText={t('dryRun.syncNow')} disabled={!enabled}>
          <Button type="primary" icon={<CloudUploadOutlined />} loading={syncing} disabled={!enabled} data-testid="sync-now">
            {t('dryRun.syncNow')}
          </Button>
        </Popconfirm>
      </Flex>
      {!enabled ? <Alert type="warning" showIcon title={t('dryRun.disabled')} style={{ marginBottom: 16 }} /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {shown && query.data ? (
        <Table<DryRun['masters'][number]>
          size="small"
          rowKey={(r) => `${r.kind}-${r.record_id}`}
          dataSource={rows}
          pagination={rows.length > 20 ? { pageSize: 20 } : false}
          locale={{ emptyText: <Empty description={t('dryRun.nothing')} /> }}
          data-testid="dry-run-table"
          columns={[
            { title: t('fields.kind'), dataIndex: 'kind', render: (v: string) => t(`kind.${v}`) },
            { title: t('fields.record'), dataIndex: 'label' },
            { title: t('fields.action'), dataIndex: 'action', render: (v: string) => t(`action.${v}`) },
          ]}
        />
      ) : null}
    </Card>
  );
}

/** The company's connection to Visma: provider, addresses, credentials (write-only), test, dry run. */
export default function AccountingConnectionPage() {
  const { t } = useTranslation('accounting');
  const { t: tc } = useTranslation();
  const f = useFormatters();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const mayManage = useMay(ACCOUNTING_PERMS.manage);
  const query = useConnection();
  const invalidate = useInvalidateAccounting();
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const missing = query.isError && isApiError(query.error) && query.error.status === 404;
  const stored = query.data;
  const { form, onFinish, submitting, formError } = useApiForm<FormValues, Connection>({
    submit: (values) => saveConnection(toInput(values)),
    onSuccess: () => {
      form.setFieldsValue({ client_secret: '', refresh_token: '' });
      void message.success(t('connection.saved'));
      void invalidate();
    },
  });
  const provider = Form.useWatch('provider', form) as Provider | undefined;

  if (query.isPending) return <PageContainer><AccountingNav /><Spin /></PageContainer>;
  if (query.isError && !missing) return <PageContainer><AccountingNav /><ErrorState error={query.error} onRetry={() => void query.refetch()} /></PageContainer>;

  const runTest = async () => {
    setTesting(true);
    setTestResult(null);
    try {
      setTestResult(await testConnection());
      void invalidate();
    } catch (error) {
      setTestResult({ ok: false, message: errorText(error) });
    } finally {
      setTesting(false);
    }
  };
  const required = { required: true, whitespace: true, message: t('validation.required') };
  const url = { type: 'url' as const, message: t('validation.url') };
  const onProvider = (value: Provider) => form.setFieldsValue(PROVIDER_DEFAULTS[value]);

  return (
    <PageContainer>
      <AccountingNav />
      <Card title={t('connection.title')}>
        <Alert type="info" showIcon title={stored ? t('connection.configured') : t('connection.none')} style={{ marginBottom: 16 }} />
        {stored?.unreadable_secrets?.length ? (
          <Alert
            type="warning"
            showIcon
            title={t('connection.secretsUnreadable', { names: stored.unreadable_secrets.join(', ') })}
            style={{ marginBottom: 16 }}
            data-testid="accounting-secrets-unreadable"
          />
        ) : null}
        <Form<FormValues> form={form} layout="vertical" style={{ maxWidth: 720 }} initialValues={initialValues(stored)} onFinish={onFinish} disabled={!mayManage}>
          <Flex gap="small" wrap>
            <Form.Item name="provider" label={t('fields.provider')} rules={[{ required: true, message: t('validation.required') }]} style={{ minWidth: 240 }}>
              <Select
                onChange={onProvider}
                options={[
                  { value: 'visma_net', label: 'Visma.net ERP' },
                  { value: 'visma_eaccounting', label: 'Visma eAccounting' },
                ]}
              />
            </Form.Item>
            <Form.Item name="enabled" label={t('fields.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Flex>
          <Form.Item name="base_url" label={t('fields.baseUrl')} rules={[required, url]} extra={t('connection.sandboxHint')}>
            <Input maxLength={300} autoComplete="off" />
          </Form.Item>
          <Form.Item name="token_url" label={t('fields.tokenUrl')} rules={[required, url]}>
            <Input maxLength={300} autoComplete="off" />
          </Form.Item>
          <Flex gap="small" wrap>
            <Form.Item name="client_id" label={t('fields.clientId')} rules={[required]} style={{ flex: 1, minWidth: 220 }}>
              <Input maxLength={200} autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="client_secret"
              label={t('fields.clientSecret')}
              extra={stored?.has_client_secret ? t('connection.secretStored') : undefined}
              rules={stored?.has_client_secret ? [] : [required]}
              style={{ flex: 1, minWidth: 220 }}
            >
              <Input.Password maxLength={4000} autoComplete="new-password" placeholder={stored?.has_client_secret ? '••••••••' : undefined} />
            </Form.Item>
          </Flex>
          <Flex gap="small" wrap>
            <Form.Item name="company_id" label={t('fields.companyId')} style={{ flex: 1, minWidth: 200 }}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
            <Form.Item name="supplier_level" label={t('fields.supplierLevel')} style={{ flex: 1, minWidth: 200 }}>
              <Select
                options={[
                  { value: 'supplier', label: t('supplierLevel.supplier') },
                  { value: 'parent_vendor', label: t('supplierLevel.parent_vendor') },
                ]}
              />
            </Form.Item>
          </Flex>
          {provider === 'visma_eaccounting' ? (
            <>
              {mayManage ? (
                <ConnectEAccounting saved={stored?.provider === 'visma_eaccounting' && !!stored.has_client_secret} hasRefreshToken={!!stored?.has_refresh_token} />
              ) : null}
              <Flex gap="small" wrap>
                <Form.Item name="authorize_url" label={t('fields.authorizeUrl')} rules={[url]} extra={t('oauth.authorizeUrlHint')} style={{ flex: 1, minWidth: 260 }}>
                  <Input maxLength={300} autoComplete="off" />
                </Form.Item>
                <Form.Item name="pkce" label={t('fields.pkce')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Flex>
              <Form.Item
                name="refresh_token"
                label={t('fields.refreshToken')}
                extra={stored?.has_refresh_token ? t('connection.refreshStored') : t('connection.refreshHint')}
              >
                <Input.Password maxLength={4000} autoComplete="off" placeholder={stored?.has_refresh_token ? '••••••••' : undefined} />
              </Form.Item>
              <Flex gap="small" wrap>
                <Form.Item name="unit_id" label={t('fields.unitId')} style={{ flex: 1, minWidth: 180 }}>
                  <Input maxLength={100} />
                </Form.Item>
                <Form.Item name="coding_id" label={t('fields.codingId')} style={{ flex: 1, minWidth: 180 }}>
                  <Input maxLength={100} />
                </Form.Item>
                <Form.Item name="default_terms_of_payment_id" label={t('fields.termsId')} style={{ flex: 1, minWidth: 180 }}>
                  <Input maxLength={100} />
                </Form.Item>
              </Flex>
            </>
          ) : (
            <Form.Item name="scope" label={t('fields.scope')}>
              <Input maxLength={500} />
            </Form.Item>
          )}
          <Form.Item name="documents_from" label={t('fields.documentsFrom')} extra={t('connection.documentsFromHint')}>
            <DatePicker />
          </Form.Item>
          {formError ? <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} /> : null}
          {testResult ? (
            <Alert type={testResult.ok ? 'success' : 'error'} showIcon title={testResult.message} style={{ marginBottom: 16 }} data-testid="connection-test-result" />
          ) : stored?.last_test_at ? (
            <Alert
              type={stored.last_test_ok ? 'success' : 'warning'}
              showIcon
              title={t('connection.lastTest', { when: f.dateTime(stored.last_test_at), message: stored.last_test_message })}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          {mayManage ? (
            <Flex gap="small" wrap>
              <Button type="primary" htmlType="submit" loading={submitting} data-testid="connection-save">
                {tc('actions.save')}
              </Button>
              <Button icon={<ApiOutlined />} onClick={() => void runTest()} loading={testing} disabled={!stored} data-testid="connection-test">
                {t('connection.test')}
              </Button>
            </Flex>
          ) : null}
        </Form>
      </Card>
      {stored && mayManage ? <DryRunCard enabled={stored.enabled ?? true} /> : null}
    </PageContainer>
  );
}
