import { RedoOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Popconfirm, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import {
  ACCOUNTING_PERMS,
  RECORD_KINDS,
  SYNC_LOG_URL,
  SYNC_STATUSES,
  retryEntry,
  skipEntry,
  type SyncEntry,
  useInvalidateAccounting,
  useMay,
} from '../api/accounting';
import { AccountingNav } from '../components/AccountingNav';
import { SyncStatusTag } from '@/shared/accounting/SyncStatusTag';
import { formatDateTime } from '@/shared/utils/format';

const FILTER_KEYS = ['status', 'kind'] as const;

/** Every push to (and status read from) the accounting system: outcome, external id, message; retry, skip. */
export default function AccountingSyncLogPage() {
  const { t, i18n } = useTranslation('accounting');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidateAccounting();
  const mayManage = useMay(ACCOUNTING_PERMS.manage);
  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      void message.success(done);
      await invalidate();
    } catch (error) {
      void message.error(errorText(error));
    }
  };
  const when = (v: string | null) => (v ? formatDateTime(v, i18n.language) : '—');
  const columns: ServerColumn<SyncEntry>[] = [
    { title: t('fields.time'), dataIndex: 'created_at', key: 'created_at', sorter: true, render: when },
    {
      title: t('fields.record'),
      key: 'record',
      render: (_: unknown, e) => (
        <>
          <Typography.Text strong>{e.record_label || `#${e.record_id}`}</Typography.Text>
          <Typography.Text type="secondary" style={{ display: 'block' }}>
            {t(`kind.${e.kind}`)}
          </Typography.Text>
        </>
      ),
    },
    { title: t('fields.action'), dataIndex: 'action', key: 'action', sorter: true, render: (v: string) => t(`action.${v}`) },
    { title: t('fields.status'), dataIndex: 'status', key: 'status', sorter: true, render: (v: string) => <SyncStatusTag status={v} /> },
    { title: t('fields.externalId'), dataIndex: 'external_id', key: 'external_id', responsive: ['md'], render: (v: string) => (v ? <Typography.Text code>{v}</Typography.Text> : '—') },
    { title: t('fields.attempts'), dataIndex: 'attempts', key: 'attempts', sorter: true, responsive: ['lg'] },
    {
      title: t('fields.error'),
      dataIndex: 'error',
      key: 'error',
      render: (v: string, e) =>
        v ? (
          <Typography.Text type={e.status === 'failed' ? 'danger' : 'secondary'} data-testid={`sync-error-${e.id}`}>
            {v}
            {e.status === 'pending' && e.next_attempt_at ? ` (${t('log.nextAttempt', { when: when(e.next_attempt_at) })})` : ''}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      render: (_: unknown, e) =>
        mayManage ? (
          <Flex gap="small" wrap>
            {e.status === 'failed' || e.status === 'skipped' ? (
              <Popconfirm title={t('log.retryConfirm')} onConfirm={() => act(() => retryEntry(e.id), t('log.retried'))} okText={t('log.retry')}>
                <Button size="small" icon={<RedoOutlined />} data-testid={`sync-retry-${e.id}`}>
                  {t('log.retry')}
                </Button>
              </Popconfirm>
            ) : null}
            {e.status === 'failed' || e.status === 'pending' ? (
              <Popconfirm title={t('log.skipConfirm')} onConfirm={() => act(() => skipEntry(e.id), t('log.skipped'))} okText={t('log.skip')} okButtonProps={{ danger: true }}>
                <Button size="small" danger icon={<StopOutlined />} data-testid={`sync-skip-${e.id}`}>
                  {t('log.skip')}
                </Button>
              </Popconfirm>
            ) : null}
          </Flex>
        ) : null,
    },
  ];
  return (
    <PageContainer>
      <AccountingNav />
      <Card title={t('log.title')}>
        <ServerTable<SyncEntry>
          endpoint={SYNC_LOG_URL}
          rowKey="id"
          columns={columns}
          exportable={false}
          listOptions={{ filterKeys: FILTER_KEYS, defaultOrdering: '-created_at' }}
          searchPlaceholder={t('log.search')}
          filters={(list) => (
            <Flex gap="small" wrap>
              <Select
                allowClear
                style={{ minWidth: 150 }}
                placeholder={t('log.allStatuses')}
                aria-label={t('fields.status')}
                value={typeof list.filters.status === 'string' ? list.filters.status : undefined}
                onChange={(value: string | undefined) => list.setFilter('status', value ?? null)}
                options={SYNC_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              />
              <Select
                allowClear
                style={{ minWidth: 150 }}
                placeholder={t('mappings.allKinds')}
                aria-label={t('fields.kind')}
                value={typeof list.filters.kind === 'string' ? list.filters.kind : undefined}
                onChange={(value: string | undefined) => list.setFilter('kind', value ?? null)}
                options={RECORD_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              />
            </Flex>
          )}
        />
      </Card>
    </PageContainer>
  );
}
