import { DownloadOutlined, KeyOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Flex, Form, Input, Row, Steps, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useSession } from '@/shared/session/useSession';
import {
  AGENT_DOWNLOAD_URL,
  agentsQueryOptions,
  createPairingCode,
  PRINTING_PERMS,
  useInvalidatePrinting,
  useRevokeAgent,
  type PairingCode,
  type PrintAgent,
} from '../api/printing';
import styles from '../components/printing.module.css';
import { AgentOnlineTag } from '../components/StatusTags';
import { formatDateTime } from '../lib/format';

/** `volatile`: the command holds this server's address, which differs from one test server to the next (the
 * pictures mask it, e2e/pictures.spec.ts). */
function Command({ text, volatile = false }: { text: string; volatile?: boolean }) {
  return (
    <Typography.Paragraph copyable={{ text }} className={styles.command} data-volatile={volatile || undefined}>
      <Typography.Text code>{text}</Typography.Text>
    </Typography.Paragraph>
  );
}

/** How to install and start the print agent, a one-time pairing code, and the agents with their health. */
export default function PrinterIntegrationPage() {
  const { t, i18n } = useTranslation('printing');
  const { message, modal } = App.useApp();
  const tenant = useSession((s) => s.tenantId);
  const mayPair = useSession((s) => s.userInfo?.permissions === undefined || s.userInfo.permissions.includes(PRINTING_PERMS.addAgent));
  const mayRevoke = useSession((s) => s.userInfo?.permissions === undefined || s.userInfo.permissions.includes(PRINTING_PERMS.changeAgent));
  const invalidate = useInvalidatePrinting();
  const revoke = useRevokeAgent();
  const [pairing, setPairing] = useState<PairingCode | null>(null);
  const origin = window.location.origin;
  const agents = useQuery({
    ...agentsQueryOptions(tenant, 'health'),
    refetchInterval: 5000,
  });
  const { form, onFinish, submitting, formError } = useApiForm<{ name: string }, PairingCode>({
    submit: (values) => createPairingCode(values.name),
    onSuccess: (code) => {
      setPairing(code);
      void invalidate();
    },
  });

  const confirmRevoke = (agent: PrintAgent) =>
    modal.confirm({
      title: t('agents.revokeTitle', { name: agent.name }),
      content: t('agents.revokeText'),
      okText: t('agents.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await revoke.mutateAsync(agent.id);
        void message.success(t('agents.revoked'));
      },
    });

  const columns: TableProps<PrintAgent>['columns'] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      render: (_: unknown, a) => (
        <>
          <Typography.Text strong>{a.name}</Typography.Text>
          <Typography.Text type="secondary" className={styles.secondLine}>
            {[a.hostname, a.version && `v${a.version}`, a.parent_vendor_name].filter(Boolean).join(' · ') || '—'}
          </Typography.Text>
        </>
      ),
    },
    {
      title: t('agents.health'),
      key: 'health',
      render: (_: unknown, a) => (a.is_active ? <AgentOnlineTag online={a.is_online} /> : <Typography.Text type="secondary">{t('agents.revokedState')}</Typography.Text>),
    },
    { title: t('fields.lastSeen'), dataIndex: 'last_seen_at', render: (v: string | null) => formatDateTime(v, i18n.language) },
    { title: t('agents.printers'), dataIndex: 'printer_count', align: 'right', responsive: ['md'] },
    { title: t('agents.token'), dataIndex: 'token_hint', responsive: ['lg'], render: (v: string) => <Typography.Text code>{`${v}…`}</Typography.Text> },
    {
      title: t('jobs.actions'),
      key: 'actions',
      render: (_: unknown, a) =>
        mayRevoke && a.is_active ? (
          <Button size="small" danger icon={<StopOutlined />} onClick={() => confirmRevoke(a)} aria-label={t('agents.revokeNamed', { name: a.name })}>
            {t('agents.revoke')}
          </Button>
        ) : null,
    },
  ];

  const code = pairing?.code ?? 'XXXX-XXXX';
  return (
    <PageContainer>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title={t('integration.installTitle')} size="small">
            <Typography.Paragraph>{t('integration.intro')}</Typography.Paragraph>
            <Steps
              orientation="vertical"
              size="small"
              current={-1}
              items={[
                {
                  title: t('integration.step1'),
                  content: (
                    <>
                      <Button icon={<DownloadOutlined />} href={AGENT_DOWNLOAD_URL} download="cartontrace_printagent.py" data-testid="agent-download">
                        {t('integration.download')}
                      </Button>
                      <Typography.Paragraph type="secondary">{t('integration.orFetch')}</Typography.Paragraph>
                      <Command text={`curl -o cartontrace_printagent.py ${origin}${AGENT_DOWNLOAD_URL}`} volatile />
                    </>
                  ),
                },
                { title: t('integration.step2'), content: <Command text={`python3 cartontrace_printagent.py pair --server ${origin} --code ${code}`} volatile /> },
                { title: t('integration.step3'), content: <Command text="python3 cartontrace_printagent.py run" /> },
                { title: t('integration.step4'), content: t('integration.step4Text') },
              ]}
            />
            <Typography.Paragraph type="secondary">{t('integration.virtual')}</Typography.Paragraph>
            <Command text="python3 cartontrace_printagent.py virtual-printer --port 9100" />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('integration.pairTitle')} size="small">
            {mayPair ? (
              <Form<{ name: string }> form={form} layout="vertical" onFinish={onFinish} initialValues={{ name: '' }}>
                <Form.Item
                  name="name"
                  label={t('integration.agentName')}
                  rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 100, message: t('validation.max', { max: 100 }) }]}
                >
                  <Input placeholder={t('integration.agentNamePlaceholder')} data-testid="pairing-name" />
                </Form.Item>
                {formError ? <Typography.Text type="danger">{formError}</Typography.Text> : null}
                <Button type="primary" htmlType="submit" icon={<KeyOutlined />} loading={submitting} data-testid="pairing-create">
                  {t('integration.createCode')}
                </Button>
              </Form>
            ) : (
              <Typography.Text type="secondary">{t('integration.noRight')}</Typography.Text>
            )}
            {pairing ? (
              <Flex vertical gap={4} className={styles.section}>
                <Typography.Text>{t('integration.codeFor', { name: pairing.name })}</Typography.Text>
                <Typography.Text strong copyable className={styles.pairingCode} data-testid="pairing-code">
                  {pairing.code}
                </Typography.Text>
                <Typography.Text type="secondary">{t('integration.codeExpires', { time: formatDateTime(pairing.expires_at, i18n.language) })}</Typography.Text>
              </Flex>
            ) : null}
          </Card>
        </Col>
      </Row>
      <Card title={t('agents.title')} size="small" className={styles.section} data-testid="agents-card">
        {agents.isError && !agents.data ? (
          <ErrorState error={agents.error} onRetry={() => void agents.refetch()} />
        ) : (
          <Table<PrintAgent>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={agents.data?.results ?? []}
            loading={agents.isLoading}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('agents.empty')} /> }}
          />
        )}
      </Card>
    </PageContainer>
  );
}
