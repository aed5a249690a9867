import { RedoOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, List, Popconfirm, Spin, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { useFormatters } from '@/shared/utils/format';
import { type EmailMessage, MESSAGE_STATUSES, type MessageStatus, useEmailHealth, useRetryMessage } from '../api/notifications';
import styles from './email.module.css';

const STATUS_TAGS: Record<MessageStatus, string> = {
  queued: 'processing',
  sending: 'processing',
  sent: 'success',
  uncertain: 'warning',
  failed: 'error',
};


/**
 * Delivery health for the company's administrator (GET /api/core/email-log/health/): messages by
 * status, failures of the last day, retries under way and the oldest message waiting; then the newest
 * failed and maybe-sent messages, each with Retry (POST .../retry/: the same message and Message-ID, one
 * more try). A maybe-sent message may already have arrived, so its Retry asks first.
 */
export function DeliveryHealth({ onOpen }: { onOpen: (id: number) => void }) {
  const { t } = useTranslation('email');
  const f = useFormatters();
  const health = useEmailHealth();
  const data = health.data;

  if (health.isPending) return <Spin aria-label={t('health.title')} />;
  if (health.isError) return <ErrorState error={health.error} onRetry={() => void health.refetch()} />;
  if (!data) return null;

  const attention = data.attention_total;
  return (
    <Card size="small" title={t('health.title')} data-testid="email-health" className={styles.health}>
      <Flex vertical gap="middle">
        <Flex wrap gap="large" className={styles.stats} role="list" aria-label={t('health.byStatus')}>
          {MESSAGE_STATUSES.map((status) => (
            <div role="listitem" key={status} data-testid={`health-${status}`}>
              <Statistic title={t(`status.${status}`)} value={data.by_status[status] ?? 0} />
            </div>
          ))}
          <div role="listitem" data-testid="health-retrying">
            <Statistic title={t('health.retrying')} value={data.retrying} />
          </div>
          <div role="listitem" data-testid="health-failed-last-day">
            <Statistic title={t('health.failedLastDay')} value={data.failed_last_day} />
          </div>
        </Flex>
        {data.oldest_waiting_since ? (
          <Typography.Text type="secondary" data-testid="health-oldest">
            {t('health.oldestWaiting', { time: f.dateTime(data.oldest_waiting_since) })}
          </Typography.Text>
        ) : null}
        {attention === 0 ? (
          <Alert type="success" showIcon title={t('health.allGood')} data-testid="health-all-good" />
        ) : (
          <AttentionList messages={data.attention} total={attention} onOpen={onOpen} />
        )}
      </Flex>
    </Card>
  );
}

function AttentionList({ messages, total, onOpen }: { messages: EmailMessage[]; total: number; onOpen: (id: number) => void }) {
  const { t } = useTranslation('email');
  return (
    <List
      size="small"
      bordered
      data-testid="health-attention"
      header={
        <Typography.Text strong>
          {messages.length < total ? t('health.attentionSome', { shown: messages.length, count: total }) : t('health.attention', { count: total })}
        </Typography.Text>
      }
      dataSource={messages}
      renderItem={(item) => <AttentionItem item={item} onOpen={onOpen} />}
    />
  );
}

function AttentionItem({ item, onOpen }: { item: EmailMessage; onOpen: (id: number) => void }) {
  const { t } = useTranslation('email');
  const { t: tc } = useTranslation();
  const f = useFormatters();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const retry = useRetryMessage();
  const [failure, setFailure] = useState<string | null>(null);

  const run = async () => {
    setFailure(null);
    try {
      await retry.mutateAsync(item.id);
      void message.success(t('health.retried'));
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  const button = (
    <Button
      size="small"
      icon={<RedoOutlined />}
      loading={retry.isPending}
      onClick={item.status === 'uncertain' ? undefined : () => void run()}
      aria-label={t('health.retryMessage', { subject: item.subject })}
      data-testid="health-retry"
    >
      {t('health.retry')}
    </Button>
  );

  return (
    <List.Item
      data-testid="health-message"
      actions={[
        item.status === 'uncertain' ? (
          <Popconfirm
            key="retry"
            title={t('health.retryMaybeSentQuestion')}
            description={t('health.retryMaybeSentExplained')}
            okText={t('health.retry')}
            cancelText={tc('actions.cancel')}
            onConfirm={() => void run()}
          >
            {button}
          </Popconfirm>
        ) : (
          <span key="retry">{button}</span>
        ),
      ]}
    >
      <List.Item.Meta
        title={
          <Flex gap="small" wrap align="center">
            <Tag color={STATUS_TAGS[item.status]}>{t(`status.${item.status}`)}</Tag>
            <Typography.Link onClick={() => onOpen(item.id)} className={styles.subject}>
              {item.subject}
            </Typography.Link>
          </Flex>
        }
        description={
          <Flex vertical gap={2}>
            <Typography.Text type="secondary">
              {t('health.messageInfo', { to: item.to.join(', '), attempts: item.attempts, time: f.dateTime(item.created_at) })}
            </Typography.Text>
            {item.last_error ? (
              <Typography.Text type="secondary" className={styles.lastError}>
                {item.last_error}
              </Typography.Text>
            ) : null}
            {failure ? <Alert type="error" showIcon title={failure} role="alert" data-testid="health-retry-error" /> : null}
          </Flex>
        }
      />
    </List.Item>
  );
}
