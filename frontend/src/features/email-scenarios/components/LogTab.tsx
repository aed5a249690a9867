import { DownloadOutlined, PaperClipOutlined, RedoOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Drawer, Flex, List, Popconfirm, Select, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { useFormatters } from '@/shared/utils/format';
import { saveBlob } from '@/shared/utils/saveFile';
import {
  downloadAttachment,
  downloadEml,
  type EmailMessage,
  LOG_URL,
  MESSAGE_STATUSES,
  type MessageStatus,
  useEvents,
  useMessage,
  useResend,
} from '../api/notifications';
import { DeliveryHealth } from './DeliveryHealth';
import { MailBody } from './MailBody';

const FILTER_KEYS = ['status', 'event', 'recipient'] as const;
const STATUS_COLORS: Record<MessageStatus, string> = {
  queued: 'processing',
  sending: 'processing',
  sent: 'success',
  uncertain: 'warning',
  failed: 'error',
};

function StatusTag({ status }: { status: MessageStatus }) {
  const { t } = useTranslation('email');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

/** One message as it was sent: headers, the exact bodies, attachments, the .eml, resend. */
function MessageDrawer({ id, onClose }: { id: number; onClose: (next?: number) => void }) {
  const { t } = useTranslation('email');
  const { t: tc } = useTranslation();
  const f = useFormatters();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const narrow = useMediaQuery('(max-width: 900px)');
  const query = useMessage(id);
  const resend = useResend();
  const item = query.data;

  const save = async (load: () => Promise<{ blob: Blob; fileName?: string | null }>, fallback: string) => {
    try {
      const file = await load();
      saveBlob(file.blob, file.fileName || fallback);
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  return (
    <Drawer open onClose={() => onClose()} size={narrow ? '100%' : 900} title={item?.subject ?? t('log.message')} destroyOnHidden>
      {query.isPending ? <Spin /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {item ? (
        <Flex vertical gap="middle" data-testid="message-detail">
          <Descriptions size="small" bordered column={narrow ? 1 : 2}>
            <Descriptions.Item label={t('fields.status')}>
              <StatusTag status={item.status} /> {item.is_test ? <Tag>{t('log.test')}</Tag> : null}
            </Descriptions.Item>
            <Descriptions.Item label={t('fields.attempts')}>{item.attempts}</Descriptions.Item>
            <Descriptions.Item label={t('fields.created')}>{f.dateTime(item.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('fields.sent')}>{f.dateTime(item.sent_at)}</Descriptions.Item>
            <Descriptions.Item label={t('fields.event')}>{item.event_label}</Descriptions.Item>
            <Descriptions.Item label={t('fields.scenario')}>{item.scenario_name || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('fields.record')}>
              {item.record_url ? <Link to={item.record_url}>{item.record_label}</Link> : item.record_label}
            </Descriptions.Item>
            <Descriptions.Item label={t('fields.transport')}>{item.transport ? t(`transport.${item.transport}`) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('fields.from')}>{item.from_email || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('fields.to')}>{item.to.join(', ')}</Descriptions.Item>
            <Descriptions.Item label={t('log.messageId')} span={2}>
              <Typography.Text code copyable>
                {item.message_id}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('log.checksum')} span={2}>
              <Typography.Text code>{item.raw_sha256 || item.body_sha256}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {item.last_error ? <Alert type={item.status === 'failed' ? 'error' : 'warning'} showIcon title={t('fields.lastError')} description={item.last_error} /> : null}
          <MailBody html={item.body_html} text={item.body_text} label={t('log.frameLabel')} />
          {item.attachments.length ? (
            <List
              size="small"
              header={<Typography.Text strong>{t('fields.attachments')}</Typography.Text>}
              dataSource={item.attachments}
              renderItem={(a) => (
                <List.Item
                  actions={[
                    <Button key="get" size="small" icon={<DownloadOutlined />} onClick={() => void save(() => downloadAttachment(item.id, a.id), a.file_name)}>
                      {t('log.download')}
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    avatar={<PaperClipOutlined />}
                    title={a.file_name}
                    description={
                      <Typography.Text type="secondary">
                        {t('log.attachmentInfo', { size: (a.size / 1024).toFixed(1), sha: a.sha256.slice(0, 16) })}
                      </Typography.Text>
                    }
                  />
                </List.Item>
              )}
            />
          ) : null}
          <Flex gap="small" wrap>
            {item.has_raw ? (
              <Button icon={<DownloadOutlined />} onClick={() => void save(() => downloadEml(item.id), `message-${item.id}.eml`)}>
                {t('log.eml')}
              </Button>
            ) : null}
            {item.status !== 'queued' && item.status !== 'sending' ? (
              <Popconfirm
                title={t('log.resendQuestion')}
                okText={t('log.resend')}
                cancelText={tc('actions.cancel')}
                onConfirm={async () => {
                  try {
                    const copy = await resend.mutateAsync(item.id);
                    void message.success(t('log.resent'));
                    onClose(copy.id);
                  } catch (error) {
                    void message.error(errorText(error));
                  }
                }}
              >
                <Button icon={<RedoOutlined />} data-testid="message-resend">
                  {t('log.resend')}
                </Button>
              </Popconfirm>
            ) : null}
          </Flex>
        </Flex>
      ) : null}
    </Drawer>
  );
}

/** The log: delivery health with Retry of failed messages, then every message, its status and the exact
 * content that was sent. */
export function LogTab() {
  const { t } = useTranslation('email');
  const f = useFormatters();
  const events = useEvents();
  const [open, setOpen] = useState<number | null>(null);
  const columns: ServerColumn<EmailMessage>[] = [
    { title: t('fields.created'), dataIndex: 'created_at', key: 'created_at', sorter: true, render: (v: string) => f.dateTime(v), width: 170 },
    { title: t('fields.status'), dataIndex: 'status', key: 'status', sorter: true, render: (v: MessageStatus) => <StatusTag status={v} /> },
    { title: t('fields.event'), dataIndex: 'event_label' },
    { title: t('fields.scenario'), dataIndex: 'scenario_name' },
    { title: t('fields.record'), dataIndex: 'record_label' },
    { title: t('fields.to'), dataIndex: 'to', render: (v: string[]) => v.join(', ') },
    { title: t('fields.subject'), dataIndex: 'subject', key: 'subject', sorter: true, ellipsis: true },
    { title: t('fields.attempts'), dataIndex: 'attempts', align: 'right' },
  ];
  return (
    <>
      <DeliveryHealth onOpen={setOpen} />
      <ServerTable<EmailMessage>
        endpoint={LOG_URL}
        rowKey="id"
        columns={columns}
        exportable={false}
        listOptions={{ defaultOrdering: '-created_at', filterKeys: FILTER_KEYS }}
        onRowClick={(row) => setOpen(row.id)}
        tableProps={{ scroll: { x: 1000 } }}
        filters={(list) => (
          <>
            <Select
              aria-label={t('fields.status')}
              placeholder={t('fields.status')}
              allowClear
              style={{ minWidth: 130 }}
              value={typeof list.filters.status === 'string' ? list.filters.status : undefined}
              onChange={(value: string | undefined) => list.setFilter('status', value)}
              options={MESSAGE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              data-testid="log-status-filter"
            />
            <Select
              aria-label={t('fields.event')}
              placeholder={t('fields.event')}
              allowClear
              style={{ minWidth: 220 }}
              value={typeof list.filters.event === 'string' ? list.filters.event : undefined}
              onChange={(value: string | undefined) => list.setFilter('event', value)}
              options={(events.data ?? []).map((e) => ({ value: e.name, label: e.label }))}
            />
          </>
        )}
      />
      {open !== null ? <MessageDrawer id={open} onClose={(next) => setOpen(next ?? null)} /> : null}
    </>
  );
}
