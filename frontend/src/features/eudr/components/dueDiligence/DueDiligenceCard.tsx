import { AuditOutlined, InboxOutlined, SafetyOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Form, Input, Modal, Radio, Skeleton, Tag, Typography, App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { countryName } from '@/shared/countries/countries';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useHasPermission, useMayPermission } from '@/shared/session/permissions';
import {
  ADD_ASSESSMENT,
  type Concern,
  type DueDiligenceOverview,
  RESOLVE_CONCERN,
  useDueDiligence,
  useRaiseConcern,
  useReasonAction,
  useResolveConcern,
} from '../../api/dueDiligence';
import type { RawMaterial } from '../../api/types';
import { CHANGE_DELIVERY } from '../../permissions';
import styles from '../eudr.module.css';
import { AssessmentDialog } from './AssessmentDialog';
import { ForestCheck } from './ForestCheck';
import { ReasonDialog } from './ReasonDialog';
import { formatDate, formatDateTime } from '@/shared/utils/format';

const LEVEL_COLOR: Record<string, string> = { low: 'green', standard: 'gold', high: 'red' };

type Dialog = null | 'assess' | 'override' | 'archive' | 'concern' | { resolve: number };

/** The delivery's due diligence: countries and their benchmark level, the assessment, what blocks the
 * statement, the override, concerns, and the five-year hold with archive (docs/duediligence.md). */
export function DueDiligenceCard({ material }: { material: RawMaterial }) {
  const { t } = useTranslation('dueDiligence');
  const query = useDueDiligence(material.id);
  if (query.isError) {
    return (
      <Card title={t('title')} size="small" className={styles.section}>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  if (!query.data) {
    return (
      <Card title={t('title')} size="small" className={styles.section} aria-busy="true">
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  return <Overview material={material} overview={query.data} />;
}

function Overview({ material, overview }: { material: RawMaterial; overview: DueDiligenceOverview }) {
  const { t, i18n } = useTranslation('dueDiligence');
  const [dialog, setDialog] = useState<Dialog>(null);
  const mayAssess = useMayPermission(ADD_ASSESSMENT);
  const mayResolve = useHasPermission(RESOLVE_CONCERN);
  const mayChange = useMayPermission(CHANGE_DELIVERY);
  const override = useReasonAction(material.id, 'override');
  const archive = useReasonAction(material.id, 'archive');
  const resolve = useResolveConcern(material.id);
  const date = (value: string) => formatDateTime(value, i18n.language);
  const close = () => setDialog(null);
  const assessment = overview.assessment;
  const overridable = overview.blockers.some((b) => b.code !== 'open_concern');

  return (
    <Card
      title={
        <Flex align="center" gap="small">
          <SafetyOutlined />
          {t('title')}
        </Flex>
      }
      size="small"
      className={styles.section}
      data-testid="due-diligence"
    >
      <Typography.Paragraph type="secondary">{t('benchmark', { act: overview.benchmark })}</Typography.Paragraph>
      <Typography.Text strong>{t('countries')}</Typography.Text>
      <Flex gap="small" wrap className={styles.section} data-testid="dd-countries">
        {overview.countries.length === 0 ? <Typography.Text type="secondary">{t('noCountries')}</Typography.Text> : null}
        {overview.countries.map((c) => (
          <Tag key={c.country_code} color={LEVEL_COLOR[c.level ?? ''] ?? 'default'} data-testid={`dd-country-${c.country_code}`}>
            {countryName(c.country_code, i18n.language)} · {t(`level.${c.level ?? 'unknown'}`)}
          </Tag>
        ))}
      </Flex>

      <Typography.Text strong>{t('forest.title')}</Typography.Text>
      <ForestCheck deliveryId={material.id} results={overview.forest} />

      {overview.hold ? (
        <Alert
          type="info"
          showIcon
          icon={<InboxOutlined />}
          className={styles.section}
          data-testid="dd-kept"
          title={t('kept.title', { date: formatDate(overview.hold.keep_until, i18n.language) })}
          description={t('kept.text', { reference: overview.hold.reference_number || t('eudr:common.none') })}
          action={
            mayChange && material.status !== 'inactive' ? (
              <Button size="small" danger onClick={() => setDialog('archive')} data-testid="dd-archive">
                {t('kept.archive')}
              </Button>
            ) : undefined
          }
        />
      ) : null}

      {overview.simplified ? (
        <Alert type="success" showIcon className={styles.section} title={t('simplified')} data-testid="dd-simplified" />
      ) : null}
      {overview.blockers.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          icon={<WarningOutlined />}
          className={styles.section}
          data-testid="dd-blockers"
          title={t('blocked')}
          description={
            <ul className={styles.plainList}>
              {overview.blockers.map((b) => (
                <li key={`${b.code}-${b.concern ?? ''}`}>{b.message}</li>
              ))}
            </ul>
          }
          action={
            overridable && overview.can_override ? (
              <Button size="small" onClick={() => setDialog('override')} data-testid="dd-override">
                {t('override.open')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <Alert type="success" showIcon className={styles.section} title={t('canFile')} data-testid="dd-can-file" />
      )}

      <Flex justify="space-between" align="center" wrap gap="small">
        <Typography.Text strong>{t('assessment.title')}</Typography.Text>
        {mayAssess ? (
          <Button size="small" icon={<AuditOutlined />} onClick={() => setDialog('assess')} data-testid="dd-assess">
            {t('assessment.open')}
          </Button>
        ) : null}
      </Flex>
      <div className={styles.section} data-testid="dd-assessment">
        {overview.forest_flagged ? (
          <Alert type="error" showIcon className={styles.section} title={t('forest.flagged')} data-testid="dd-forest-flagged" />
        ) : null}
        {assessment ? (
          <>
            <Tag color={assessment.conclusion === 'negligible' ? 'green' : 'red'}>{t(`conclusion.${assessment.conclusion}`)}</Tag>
            <Typography.Text type="secondary">
              {t('assessment.current', { name: assessment.assessed_by || t('audit.system'), date: date(assessment.assessed_at) })}
            </Typography.Text>
            {assessment.delivery === null ? <div>{t('assessment.supplier', { name: assessment.parent_vendor_name })}</div> : null}
            {assessment.mitigation.length > 0 ? (
              <ul>
                {assessment.mitigation.map((m, index) => (
                  <li key={index}>
                    {t(`assessment.kinds.${m.kind}`)}: {m.description} ({m.evidence})
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : (
          <Typography.Text type="secondary">{t('assessment.none')}</Typography.Text>
        )}
        {overview.override ? (
          <Typography.Paragraph type="secondary" data-testid="dd-override-recorded">
            {t('override.recorded', { name: overview.override.by, date: date(overview.override.at), reason: overview.override.reason })}
          </Typography.Paragraph>
        ) : null}
      </div>

      <Flex justify="space-between" align="center" wrap gap="small">
        <Typography.Text strong>{t('concerns.title')}</Typography.Text>
        <Button size="small" onClick={() => setDialog('concern')} data-testid="dd-raise-concern">
          {t('concerns.raise')}
        </Button>
      </Flex>
      <ConcernList concerns={overview.concerns} mayResolve={mayResolve} onResolve={(id) => setDialog({ resolve: id })} />

      {overview.archives.length > 0 ? (
        <>
          <Typography.Text strong>{t('kept.history')}</Typography.Text>
          <ul className={styles.plainList} data-testid="dd-archives">
            {overview.archives.map((a) => (
              <li key={a.id}>
                {a.kind === 'statement_voided' ? t('void.done') : t('kept.archived')} · {t('concerns.by', { name: a.by, date: date(a.at) })}: {a.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {mayAssess ? <AssessmentDialog deliveryId={material.id} open={dialog === 'assess'} onClose={close} /> : null}
      <ReasonDialog
        open={dialog === 'override'}
        title={t('override.title')}
        help={t('override.help')}
        okText={t('override.open')}
        done={t('override.done')}
        testId="dd-override-dialog"
        submit={(reason) => override.mutateAsync(reason)}
        onClose={close}
      />
      <ReasonDialog
        open={dialog === 'archive'}
        title={t('kept.archiveTitle')}
        help={t('kept.archiveHelp')}
        okText={t('kept.archive')}
        danger
        done={t('kept.archived')}
        testId="dd-archive-dialog"
        submit={(reason) => archive.mutateAsync(reason)}
        onClose={close}
      />
      <ReasonDialog
        open={typeof dialog === 'object' && dialog !== null}
        title={t('concerns.resolveTitle')}
        help={t('concerns.raiseHelp')}
        label={t('concerns.resolution')}
        okText={t('concerns.resolve')}
        done={t('concerns.resolvedDone')}
        testId="dd-resolve-dialog"
        submit={(resolution) => resolve.mutateAsync({ concern: typeof dialog === 'object' && dialog ? dialog.resolve : 0, resolution })}
        onClose={close}
      />
      <ConcernDialog material={material} open={dialog === 'concern'} onClose={close} />
    </Card>
  );
}

function ConcernList({ concerns, mayResolve, onResolve }: { concerns: Concern[]; mayResolve: boolean; onResolve: (id: number) => void }) {
  const { t, i18n } = useTranslation('dueDiligence');
  if (concerns.length === 0) {
    return (
      <Typography.Paragraph type="secondary" className={styles.section}>
        {t('concerns.none')}
      </Typography.Paragraph>
    );
  }
  return (
    <ul className={`${styles.plainList} ${styles.section}`} data-testid="dd-concerns">
      {concerns.map((c) => (
        <li key={c.id} className={styles.fileRow}>
          <Flex vertical flex={1}>
            <span>
              <Tag color={c.is_open ? 'red' : 'default'}>{c.is_open ? t('concerns.open') : t('concerns.resolved')}</Tag>
              {c.description}
            </span>
            <Typography.Text type="secondary">
              {t('concerns.by', { name: c.raised_by, date: formatDateTime(c.raised_at, i18n.language) })}
              {c.resolution ? ` · ${c.resolution}` : ''}
            </Typography.Text>
          </Flex>
          {c.is_open && mayResolve ? (
            <Button size="small" onClick={() => onResolve(c.id)} data-testid={`dd-resolve-${c.id}`}>
              {t('concerns.resolve')}
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

interface ConcernValues {
  target: 'delivery' | 'supplier';
  description: string;
  source?: string;
}

function ConcernDialog({ material, open, onClose }: { material: RawMaterial; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('dueDiligence');
  const { message } = App.useApp();
  const raise = useRaiseConcern(material.id);
  const { form, onFinish, submitting, formError, clearFormError } = useApiForm<ConcernValues>({
    submit: (values) =>
      raise.mutateAsync({
        description: values.description.trim(),
        source: values.source?.trim() ?? '',
        ...(values.target === 'supplier' && material.parent_vendor ? { parent_vendor: material.parent_vendor } : { delivery: material.id }),
      }),
    onSuccess: () => {
      void message.success(t('concerns.raised'));
      onClose();
    },
  });
  const close = () => {
    clearFormError();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('concerns.raiseTitle')}
      okText={t('concerns.raise')}
      okButtonProps={{ 'data-testid': 'dd-concern-ok' }}
      cancelText={t('common:actions.cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Alert type="info" showIcon className={styles.section} title={t('concerns.raiseHelp')} />
      <Form<ConcernValues> form={form} layout="vertical" preserve={false} initialValues={{ target: 'delivery' }} onFinish={(values) => void onFinish(values)}>
        <Form.Item name="target" label={t('concerns.target')}>
          <Radio.Group
            options={[
              { value: 'delivery', label: t('concerns.onDelivery') },
              ...(material.parent_vendor ? [{ value: 'supplier', label: t('concerns.onSupplier') }] : []),
            ]}
          />
        </Form.Item>
        <Form.Item name="description" label={t('concerns.description')} rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}>
          <Input.TextArea autoFocus rows={3} maxLength={4000} data-testid="dd-concern-description" />
        </Form.Item>
        <Form.Item name="source" label={t('concerns.source')}>
          <Input maxLength={300} />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
