import { CloudUploadOutlined, ReloadOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Descriptions, Flex, Form, Input, Popconfirm, Skeleton, Table, Tag, Typography } from 'antd';
import type { Dayjs } from '@/shared/utils/dayjs';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { formatDate, formatDateTime } from '@/shared/utils/format';
import { useFilePlacingStatement, usePlacingAction, usePlacingPreview, type PlacingAction, type PlacingStatement } from './api';
import styles from './placing.module.css';
import { paths } from '@/shared/routing/paths';

const STATUS_COLORS: Record<string, string> = {
  draft: 'default',
  submitted: 'processing',
  available: 'success',
  amended: 'success',
  rejected: 'error',
  withdrawn: 'warning',
};

interface Props {
  /** The inbound shipments (containers) of one import. */
  shipments: number[];
  /** The user may file, refresh and withdraw. */
  mayChange: boolean;
}

interface Values {
  customs_declaration_number?: string;
  customs_declaration_date?: Dayjs | null;
}

/** The due diligence statement around an import's placing: what its containers hold per HS heading,
 * the deliveries behind the cartons, the statements that cover them (with the reference number the
 * customs broker needs) and filing a statement for the cartons not covered yet. */
export function PlacingStatementCard({ shipments, mayChange }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const preview = usePlacingPreview(shipments);
  const file = useFilePlacingStatement();
  const action = usePlacingAction();
  const when = (value?: string | null) => (value ? formatDateTime(value, i18n.language) : t('common.none'));

  const { form, onFinish, submitting, formError } = useApiForm<Values, PlacingStatement>({
    submit: (values) =>
      file.mutateAsync({
        shipments,
        customs_declaration_number: (values.customs_declaration_number ?? '').trim(),
        customs_declaration_date: values.customs_declaration_date ? values.customs_declaration_date.format('YYYY-MM-DD') : null,
      }),
    onSuccess: (filed) => {
      if (filed.last_error) void message.warning(filed.last_error);
      else void message.success(t('placing.filed', { count: filed.cartons }));
      form.resetFields();
    },
  });

  const run = async (id: number, name: PlacingAction) => {
    try {
      const result = await action.mutateAsync({ id, action: name });
      if (result.last_error) void message.warning(result.last_error);
      else void message.success(t(`filing.done.${name}`));
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  if (preview.isPending) {
    return (
      <Card title={t('placing.title')} size="small" className={styles.section}>
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );
  }
  if (preview.isError) {
    return (
      <Card title={t('placing.title')} size="small" className={styles.section}>
        <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
      </Card>
    );
  }
  const data = preview.data;
  const nothing = data.cartons === 0 && data.cartons_covered === 0;

  return (
    <Card title={t('placing.title')} size="small" className={styles.section} data-testid="placing-statement">
      {nothing ? (
        <Typography.Text type="secondary" data-testid="placing-empty">
          {t('placing.empty')}
        </Typography.Text>
      ) : null}
      {data.statements.map((statement) => (
        <StatementFacts
          key={statement.id}
          statement={statement}
          when={when}
          mayChange={mayChange}
          busy={action.isPending}
          onAction={(name) => void run(statement.id, name)}
        />
      ))}
      {data.cartons > 0 ? (
        <>
          <Alert
            type="warning"
            showIcon
            className={styles.section}
            title={t('placing.uncovered', { count: data.cartons, kg: data.net_weight_kg })}
            description={t('placing.uncoveredText')}
            data-testid="placing-uncovered"
          />
          <Table
            size="small"
            rowKey="hs_heading"
            pagination={false}
            className={styles.section}
            dataSource={data.commodities}
            scroll={{ x: true }}
            columns={[
              { key: 'hs', title: t('placing.hsHeading'), dataIndex: 'hs_heading' },
              { key: 'cartons', title: t('placing.cartons'), dataIndex: 'cartons', align: 'right' },
              { key: 'kg', title: t('placing.netKg'), dataIndex: 'net_weight_kg', align: 'right' },
              { key: 'description', title: t('placing.goods'), dataIndex: 'description' },
            ]}
            data-testid="placing-commodities"
          />
          <Typography.Paragraph className={styles.section}>
            {t('placing.deliveries')}{' '}
            {data.deliveries.map((d) => (
              <Tag key={d.id}>
                <Link to={paths.rawMaterial(d.id)}>{d.delivery_number}</Link>
                {d.country ? ` · ${d.country}` : ''}
              </Tag>
            ))}
          </Typography.Paragraph>
          {mayChange && !data.account_ready ? (
            <Alert
              type="info"
              showIcon
              className={styles.section}
              title={t('filing.noAccount')}
              action={<Link to={paths.companySettings()}>{t('filing.toSettings')}</Link>}
            />
          ) : null}
          {mayChange && data.account_ready ? (
            <Form<Values> form={form} layout="vertical" onFinish={onFinish} data-testid="placing-form" className={styles.section}>
              <Flex wrap gap="small" align="end">
                <Form.Item
                  name="customs_declaration_number"
                  label={t('placing.customsNumber')}
                  normalize={(value: string) => value.toUpperCase()}
                  rules={[{ pattern: /^[A-Za-z0-9]*$/, message: t('placing.customsNumberFormat') }, { max: 40 }]}
                >
                  <Input maxLength={40} placeholder={t('placing.customsPlaceholder')} data-testid="placing-customs-number" />
                </Form.Item>
                <Form.Item
                  name="customs_declaration_date"
                  label={t('placing.customsDate')}
                  dependencies={['customs_declaration_number']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_: unknown, value: Dayjs | null | undefined) =>
                        getFieldValue('customs_declaration_number') && !value
                          ? Promise.reject(new Error(t('placing.customsDateRequired')))
                          : Promise.resolve(),
                    }),
                  ]}
                >
                  <DatePicker format="YYYY-MM-DD" data-testid="placing-customs-date" />
                </Form.Item>
                <Form.Item>
                  <Popconfirm
                    title={t('placing.fileQuestion', { count: data.cartons })}
                    description={t('placing.fileText')}
                    okText={t('filing.submit')}
                    okButtonProps={{ 'data-testid': 'placing-file-confirm' }}
                    cancelText={t('common:actions.cancel')}
                    onConfirm={() => form.submit()}
                  >
                    <Button type="primary" icon={<CloudUploadOutlined />} loading={submitting} data-testid="placing-file">
                      {t('placing.file', { count: data.cartons })}
                    </Button>
                  </Popconfirm>
                </Form.Item>
              </Flex>
              {formError ? <Alert type="error" showIcon title={formError} data-testid="placing-error" /> : null}
            </Form>
          ) : null}
        </>
      ) : null}
      {data.cartons === 0 && data.cartons_covered > 0 ? (
        <Typography.Paragraph type="secondary" className={styles.section} data-testid="placing-all-covered">
          {t('placing.allCovered', { count: data.cartons_covered })}
        </Typography.Paragraph>
      ) : null}
      <Typography.Paragraph type="secondary" className={styles.section}>
        {t('placing.help')}
      </Typography.Paragraph>
    </Card>
  );
}

function StatementFacts({
  statement,
  when,
  mayChange,
  busy,
  onAction,
}: {
  statement: PlacingStatement;
  when: (value?: string | null) => string;
  mayChange: boolean;
  busy: boolean;
  onAction: (name: PlacingAction) => void;
}) {
  const { t, i18n } = useTranslation('eudr');
  const live = !['rejected', 'withdrawn'].includes(statement.status);
  const unanswered = Boolean(statement.pending_action && statement.last_error);
  return (
    <div className={styles.section} data-testid={`placing-statement-${statement.id}`}>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('filing.status')}>
          <Tag color={STATUS_COLORS[statement.status] ?? 'default'} data-testid="placing-status">
            {t(`filing.statuses.${statement.status}`, { defaultValue: statement.status })}
          </Tag>
          {statement.pending_action ? (
            <Tag color="processing">{t('filing.pending', { action: t(`filing.actions.${statement.pending_action}`) })}</Tag>
          ) : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('filed.reference')}>
          {statement.reference_number ? (
            <Typography.Text copyable strong data-testid="placing-reference">
              {statement.reference_number}
            </Typography.Text>
          ) : (
            t('common.none')
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('filed.verification')}>
          {statement.verification_number ? <Typography.Text copyable>{statement.verification_number}</Typography.Text> : t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('placing.covers')}>
          {t('placing.coversValue', { count: statement.cartons, kg: statement.net_weight_kg })}{' '}
          {statement.shipments.map((s) => (
            <Tag key={s.id}>{s.container_number}</Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label={t('placing.customs')}>
          {statement.customs_declaration_number
            ? `${statement.customs_declaration_number}${statement.customs_declaration_date ? ` · ${formatDate(statement.customs_declaration_date, i18n.language)}` : ''}`
            : t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('filing.submittedAt')}>{when(statement.submitted_at)}</Descriptions.Item>
      </Descriptions>
      {statement.messages.length ? (
        <Alert
          type={statement.status === 'rejected' ? 'error' : 'warning'}
          showIcon
          className={styles.section}
          title={statement.status === 'rejected' ? t('filing.rejectedTitle') : t('filing.messagesTitle')}
          description={statement.messages.map((m) => m.message).join(' · ')}
        />
      ) : null}
      {statement.status_due_at && !unanswered ? (
        <Typography.Paragraph type="secondary" className={styles.section}>
          {t('filing.statusDue', { when: when(statement.status_due_at) })}
        </Typography.Paragraph>
      ) : null}
      {mayChange && live ? (
        <Flex wrap gap="small" className={styles.section}>
          <Button icon={<ReloadOutlined />} disabled={busy} onClick={() => onAction('refresh')} data-testid="placing-refresh">
            {unanswered ? t('filing.retry') : t('filing.refresh')}
          </Button>
          {statement.can_withdraw ? (
            <Popconfirm
              title={t('filing.withdrawQuestion')}
              description={t('placing.withdrawText')}
              okText={t('filing.withdraw')}
              okButtonProps={{ danger: true, 'data-testid': 'placing-withdraw-confirm' }}
              cancelText={t('common:actions.cancel')}
              onConfirm={() => onAction('withdraw')}
            >
              <Button danger icon={<RollbackOutlined />} disabled={busy} data-testid="placing-withdraw">
                {t('filing.withdraw')}
              </Button>
            </Popconfirm>
          ) : null}
        </Flex>
      ) : null}
    </div>
  );
}
