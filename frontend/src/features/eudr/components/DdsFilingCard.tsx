import { CloudUploadOutlined, EditOutlined, ReloadOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Flex, Popconfirm, Skeleton, Tag, Timeline, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { useDdsFiling, useFilingAction, type DdsSubmission, type FilingAction } from '../api/filing';
import type { RawMaterial } from '../api/types';
import styles from './eudr.module.css';
import { formatDateTime } from '@/shared/utils/format';
import { paths } from '@/shared/routing/paths';

const STATUS_COLORS: Record<string, string> = {
  draft: 'default',
  submitted: 'processing',
  available: 'success',
  amended: 'success',
  rejected: 'error',
  withdrawn: 'warning',
  grouped: 'purple',
  archived: 'default',
};

interface Props {
  material: RawMaterial;
  /** The user may file, amend and withdraw (internal users with the change permission). */
  mayChange: boolean;
}

/** The statement filed from the product with the EU information system: status, numbers, the system's
 * messages, the actions the system allows (amend and withdraw within 72 hours) and the history.
 * Internal pages only: the verification number is shown here and nowhere public. */
export function DdsFilingCard({ material, mayChange }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const query = useDdsFiling(material.id);
  const action = useFilingAction(material.id);
  const when = (value?: string | null) => (value ? formatDateTime(value, i18n.language) : t('common.none'));

  const run = async (name: FilingAction) => {
    try {
      const result = await action.mutateAsync(name);
      const current = result.current ?? result.history[0];
      if (current?.last_error) void message.warning(current.last_error);
      else void message.success(t(`filing.done.${name}`));
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  if (query.isPending) {
    return (
      <Card title={t('filing.title')} size="small" className={styles.section}>
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card title={t('filing.title')} size="small" className={styles.section}>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  const { current, history, account_ready: accountReady, environment } = query.data;
  const busy = action.isPending;
  const last = current ?? history[0];
  const unanswered = Boolean(current?.pending_action && current.last_error);
  // Not accepted yet and nothing under way (e.g. the credentials were refused): it can be sent again.
  const resendable = Boolean(current && !current.uuid && !current.pending_action);

  const actions = mayChange ? (
    <Flex wrap gap="small" className={styles.section}>
      {!current || resendable ? (
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          loading={busy && action.variables === 'submit'}
          disabled={busy || !accountReady || material.status === 'draft'}
          onClick={() => void run('submit')}
          data-testid="filing-submit"
        >
          {history.length && !resendable ? t('filing.submitAgain') : t('filing.submit')}
        </Button>
      ) : null}
      {current?.can_amend ? (
        <Popconfirm
          title={t('filing.amendQuestion')}
          description={t('filing.amendText')}
          okText={t('filing.amend')}
          okButtonProps={{ 'data-testid': 'filing-amend-confirm' }}
          cancelText={t('common:actions.cancel')}
          onConfirm={() => run('amend')}
        >
          <Button icon={<EditOutlined />} disabled={busy} data-testid="filing-amend">
            {t('filing.amend')}
          </Button>
        </Popconfirm>
      ) : null}
      {current?.can_withdraw ? (
        <Popconfirm
          title={t('filing.withdrawQuestion')}
          description={t('filing.withdrawText')}
          okText={t('filing.withdraw')}
          okButtonProps={{ danger: true, 'data-testid': 'filing-withdraw-confirm' }}
          cancelText={t('common:actions.cancel')}
          onConfirm={() => run('withdraw')}
        >
          <Button danger icon={<RollbackOutlined />} disabled={busy} data-testid="filing-withdraw">
            {t('filing.withdraw')}
          </Button>
        </Popconfirm>
      ) : null}
      {current && !resendable ? (
        <Button icon={<ReloadOutlined />} loading={busy && action.variables === 'refresh'} disabled={busy} onClick={() => void run('refresh')} data-testid="filing-refresh">
          {unanswered ? t('filing.retry') : t('filing.refresh')}
        </Button>
      ) : null}
    </Flex>
  ) : null;

  return (
    <Card title={t('filing.title')} size="small" className={styles.section} data-testid="dds-filing">
      {!accountReady && mayChange ? (
        <Alert
          type="info"
          showIcon
          className={styles.section}
          title={t('filing.noAccount')}
          action={<Link to={paths.companySettings()}>{t('filing.toSettings')}</Link>}
          data-testid="filing-no-account"
        />
      ) : null}
      {last ? <SubmissionFacts submission={last} when={when} environment={environment} /> : (
        <Typography.Text type="secondary" data-testid="filing-none">
          {t('filing.none')}
        </Typography.Text>
      )}
      {actions}
      {current?.status_due_at && !unanswered ? (
        <Typography.Paragraph type="secondary" className={styles.section} data-testid="filing-status-due">
          {t('filing.statusDue', { when: when(current.status_due_at) })}
        </Typography.Paragraph>
      ) : null}
      {history.length ? (
        <details className={styles.section}>
          <summary>{t('filing.history', { count: history.length })}</summary>
          <Timeline
            className={styles.section}
            items={history.flatMap((submission) =>
              [...submission.events].reverse().map((event, index) => ({
                key: `${submission.id}-${index}`,
                color: event.outcome === 'ok' ? 'green' : event.outcome === 'refused' ? 'red' : event.outcome === 'unknown' ? 'orange' : 'gray',
                children: (
                  <span>
                    {when(event.created_at)} · {t(`filing.actions.${event.action}`)} · {t(`filing.outcomes.${event.outcome}`, { defaultValue: event.outcome })}
                    {event.user ? ` · ${event.user}` : ''}
                    {event.message ? <Typography.Paragraph type="secondary">{event.message}</Typography.Paragraph> : null}
                  </span>
                ),
              })),
            )}
          />
        </details>
      ) : null}
    </Card>
  );
}

function SubmissionFacts({ submission, when, environment }: { submission: DdsSubmission; when: (v?: string | null) => string; environment: string }) {
  const { t } = useTranslation('eudr');
  return (
    <>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('filing.status')}>
          <Tag color={STATUS_COLORS[submission.status] ?? 'default'} data-testid="filing-status">
            {t(`filing.statuses.${submission.status}`, { defaultValue: submission.status })}
          </Tag>
          {submission.pending_action ? <Tag color="processing">{t('filing.pending', { action: t(`filing.actions.${submission.pending_action}`) })}</Tag> : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('filing.environment')}>{t(`filing.environments.${submission.environment || environment}`, { defaultValue: submission.environment })}</Descriptions.Item>
        <Descriptions.Item label={t('filed.reference')}>
          {submission.reference_number ? <Typography.Text copyable strong data-testid="filing-reference">{submission.reference_number}</Typography.Text> : t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('filed.verification')}>
          {submission.verification_number ? <Typography.Text copyable data-testid="filing-verification">{submission.verification_number}</Typography.Text> : t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('filing.internalReference')}>{submission.internal_reference}</Descriptions.Item>
        <Descriptions.Item label={t('filing.submittedAt')}>{when(submission.submitted_at)}</Descriptions.Item>
        {submission.window_ends_at && !['withdrawn', 'rejected'].includes(submission.status) ? (
          <Descriptions.Item label={t('filing.windowEnds')}>{when(submission.window_ends_at)}</Descriptions.Item>
        ) : null}
      </Descriptions>
      {submission.messages.length ? (
        <Alert
          type={submission.status === 'rejected' ? 'error' : 'warning'}
          showIcon
          className={styles.section}
          title={submission.status === 'rejected' ? t('filing.rejectedTitle') : t('filing.messagesTitle')}
          description={
            <ul>
              {submission.messages.map((item, index) => (
                <li key={index}>{item.field ? `${item.field}: ${item.message}` : item.message}</li>
              ))}
            </ul>
          }
          data-testid="filing-messages"
        />
      ) : submission.last_error ? (
        <Alert type="warning" showIcon className={styles.section} title={submission.last_error} data-testid="filing-error" />
      ) : null}
    </>
  );
}
