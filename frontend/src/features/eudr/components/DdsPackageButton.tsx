import { FileZipOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { useErrorText } from '@/shared/errors/errorText';
import { formatFileSize } from '@/shared/utils/files';
import { downloadDdsPackage, fetchDdsJob, startDdsPackage } from '../api/dds';
import type { DdsCheck, DdsJob, RawMaterial } from '../api/types';
import styles from './eudr.module.css';

const POLL_MS = 1000;

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; job: DdsJob | null }
  | { kind: 'missing'; errors: DdsCheck[]; warnings: DdsCheck[] }
  | { kind: 'failed'; message: string }
  | { kind: 'done'; job: DdsJob };

function checkText(check: DdsCheck, t: (key: string, options?: Record<string, unknown>) => string): string {
  return check.feature === null || check.feature === undefined ? check.message : t('geometry.featureMessage', { number: check.feature + 1, message: check.message });
}

/**
 * Builds the due diligence package (a ZIP for the EU information system): progress while it is built,
 * the missing information listed when it cannot be, and a success dialog with the download when done.
 */
export function DdsPackageButton({ material }: { material: RawMaterial }) {
  const { t } = useTranslation('eudr');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [downloading, setDownloading] = useState(false);
  const timer = useRef<number | null>(null);

  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );

  const follow = (job: DdsJob) => {
    if (job.status === 'done') {
      setPhase({ kind: 'done', job });
      return;
    }
    if (job.status === 'failed') {
      setPhase({ kind: 'failed', message: job.message || t('dds.failed') });
      return;
    }
    setPhase({ kind: 'running', job });
    timer.current = window.setTimeout(() => {
      fetchDdsJob(material.id, job.id).then(follow, (error: unknown) => setPhase({ kind: 'failed', message: errorText(error) }));
    }, POLL_MS);
  };

  const start = async () => {
    setPhase({ kind: 'running', job: null });
    try {
      follow(await startDdsPackage(material.id));
    } catch (error) {
      const data = isApiError(error) ? (error.data as { errors?: DdsCheck[]; warnings?: DdsCheck[] } | null) : null;
      if (isApiError(error) && error.error === 'dds_information_missing' && data) {
        setPhase({ kind: 'missing', errors: data.errors ?? [], warnings: data.warnings ?? [] });
      } else {
        setPhase({ kind: 'failed', message: errorText(error) });
      }
    }
  };

  const download = async (job: DdsJob) => {
    setDownloading(true);
    try {
      await downloadDdsPackage(material.id, job.id, job.file_name || `dds-${material.delivery_number}.zip`);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setDownloading(false);
    }
  };

  const close = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    setPhase({ kind: 'idle' });
  };

  const progress = phase.kind === 'running' && phase.job && phase.job.progress.total > 0 ? Math.round((phase.job.progress.done / phase.job.progress.total) * 100) : 0;

  return (
    <>
      <Button icon={<FileZipOutlined />} onClick={() => void start()} loading={phase.kind === 'running'} disabled={material.status === 'draft'} data-testid="dds-package">
        {t('dds.button')}
      </Button>
      <Modal
        open={phase.kind !== 'idle'}
        onCancel={close}
        title={phase.kind === 'done' ? null : t('dds.title')}
        footer={
          phase.kind === 'done'
            ? [
                <Button key="close" onClick={close}>
                  {t('common:actions.close')}
                </Button>,
                <Button key="download" type="primary" loading={downloading} onClick={() => void download(phase.job)} data-testid="dds-download">
                  {t('dds.download')}
                </Button>,
              ]
            : [
                <Button key="close" onClick={close}>
                  {t('common:actions.close')}
                </Button>,
              ]
        }
        data-testid="dds-dialog"
      >
        {phase.kind === 'running' ? (
          <>
            <Typography.Paragraph>{t(`dds.steps.${phase.job?.progress.step ?? 'queued'}`, { defaultValue: t('dds.building') })}</Typography.Paragraph>
            <Progress percent={progress} status="active" />
          </>
        ) : null}
        {phase.kind === 'missing' ? (
          <>
            <Alert type="error" showIcon className={styles.section} title={t('dds.missingTitle')} description={t('dds.missingText')} />
            <ul data-testid="dds-missing">
              {phase.errors.map((check, index) => (
                <li key={index}>{checkText(check, t)}</li>
              ))}
            </ul>
            {phase.warnings.length > 0 ? (
              <>
                <Typography.Title level={5}>{t('dds.warnings')}</Typography.Title>
                <ul>
                  {phase.warnings.map((check, index) => (
                    <li key={index}>{checkText(check, t)}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        ) : null}
        {phase.kind === 'failed' ? <Alert type="error" showIcon title={phase.message} /> : null}
        {phase.kind === 'done' ? (
          <Result
            status="success"
            title={t('dds.successTitle')}
            subTitle={t('dds.successText', { name: phase.job.file_name, size: phase.job.size ? formatFileSize(phase.job.size) : '' })}
            data-testid="dds-success"
          >
            {phase.job.warnings.length > 0 ? (
              <Alert
                type="warning"
                showIcon
                title={t('dds.warnings')}
                description={
                  <ul>
                    {phase.job.warnings.map((check, index) => (
                      <li key={index}>{checkText(check, t)}</li>
                    ))}
                  </ul>
                }
              />
            ) : null}
          </Result>
        ) : null}
      </Modal>
    </>
  );
}
