import { EditOutlined, FileZipOutlined, LoadingOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { useErrorText } from '@/shared/errors/errorText';
import { useSession } from '@/shared/session/useSession';
import { formatFileSize } from '@/shared/utils/files';
import { downloadDdsPackage, fetchDdsJob, startDdsPackage } from '../api/dds';
import type { DdsCheck, DdsJob, RawMaterial } from '../api/types';
import { stepOfCheck } from './wizard/wizardModel';
import styles from './eudr.module.css';

export const DDS_POLL_MS = 1000;

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; job: DdsJob | null }
  | { kind: 'missing'; errors: DdsCheck[]; warnings: DdsCheck[] }
  | { kind: 'failed'; message: string }
  | { kind: 'done'; job: DdsJob };

function checkText(check: DdsCheck, t: (key: string, options?: Record<string, unknown>) => string): string {
  return check.feature === null || check.feature === undefined ? check.message : t('geometry.featureMessage', { number: check.feature + 1, message: check.message });
}

/** Where the running job of a delivery is remembered (per tab), so it can be picked up again. */
export function ddsJobStorageKey(tenant: string | null, deliveryId: number): string {
  return `eudr:dds-job:${tenant ?? ''}:${deliveryId}`;
}

function remembered(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key: string, jobId: string | null) {
  try {
    if (jobId) window.sessionStorage.setItem(key, jobId);
    else window.sessionStorage.removeItem(key);
  } catch {
    // Storage unavailable: the job is only followed while the page is open.
  }
}

interface Props {
  material: RawMaterial;
  /** Opens the delivery's edit form to fix a missing piece (the check's code); absent: no edit link. */
  onFix?: (code: string | null) => void;
  /** The success dialog tells what comes next: file it in the EU information system, record the numbers. */
  filingHint?: boolean;
}

/**
 * Builds the due diligence package (a ZIP for the EU information system): progress while it is built,
 * the missing information listed when it cannot be (with a way to fix it), and a success dialog with
 * the download when done. Closing the dialog while the package is being built keeps following the job
 * in the background; the button opens it again (also after leaving the page and coming back).
 */
export function DdsPackageButton({ material, onFix, filingHint = false }: Props) {
  const { t } = useTranslation('eudr');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const tenant = useSession((s) => s.tenantId);
  const storageKey = ddsJobStorageKey(tenant, material.id);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const timer = useRef<number | null>(null);
  /** Bumped by every start, close and unmount: answers of an older run are dropped. */
  const run = useRef(0);
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  }, [open]);

  const stopPolling = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };

  /** Shows a job's state and keeps polling it while it runs (only for the current run). */
  const follow = (job: DdsJob, token: number) => {
    if (token !== run.current) return;
    if (job.status === 'done') {
      remember(storageKey, null);
      setPhase({ kind: 'done', job });
      if (!openRef.current) void message.success(t('dds.readyInBackground'));
      return;
    }
    if (job.status === 'failed') {
      remember(storageKey, null);
      setPhase({ kind: 'failed', message: job.message || t('dds.failed') });
      if (!openRef.current) void message.error(job.message || t('dds.failed'));
      return;
    }
    remember(storageKey, job.id);
    setPhase({ kind: 'running', job });
    timer.current = window.setTimeout(() => {
      fetchDdsJob(material.id, job.id).then(
        (next) => followRef.current(next, token),
        (error: unknown) => {
          if (token !== run.current) return;
          remember(storageKey, null);
          setPhase({ kind: 'failed', message: errorText(error) });
        },
      );
    }, DDS_POLL_MS);
  };
  const followRef = useRef(follow);
  useEffect(() => {
    followRef.current = follow;
  });

  // A job started earlier in this tab (dialog closed, page left) is picked up again, quietly.
  useEffect(() => {
    const jobId = remembered(storageKey);
    const token = ++run.current;
    if (jobId) {
      fetchDdsJob(material.id, jobId).then(
        (job) => {
          if (token !== run.current) return;
          if (job.status === 'queued' || job.status === 'running') followRef.current(job, token);
          else remember(storageKey, null);
        },
        () => remember(storageKey, null),
      );
    }
    return () => {
      run.current += 1;
      if (timer.current !== null) window.clearTimeout(timer.current);
    };
  }, [storageKey, material.id]);

  const start = async () => {
    if (phase.kind === 'running' || (phase.kind === 'done' && !open)) {
      // Still being built, or finished in the background: show it rather than starting another.
      setOpen(true);
      return;
    }
    stopPolling();
    const token = ++run.current;
    setOpen(true);
    setPhase({ kind: 'running', job: null });
    try {
      follow(await startDdsPackage(material.id), token);
    } catch (error) {
      if (token !== run.current) return;
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
    setOpen(false);
    // A running job goes on in the background; anything else is finished with.
    if (phase.kind !== 'running') setPhase({ kind: 'idle' });
  };

  const running = phase.kind === 'running';
  const percent = running && phase.job && phase.job.progress.total > 0 ? Math.round((phase.job.progress.done / phase.job.progress.total) * 100) : 0;
  const fixable = phase.kind === 'missing' ? phase.errors.find((check) => stepOfCheck(check.code) !== null) : undefined;

  const closeButton = (
    <Button key="close" onClick={close} data-testid="dds-close">
      {running ? t('dds.closeRunning') : t('common:actions.close')}
    </Button>
  );

  return (
    <>
      <Button
        // Not `loading`: a loading button ignores clicks, and this one opens the running job again.
        icon={running ? <LoadingOutlined /> : <FileZipOutlined />}
        onClick={() => void start()}
        disabled={material.status === 'draft'}
        data-testid="dds-package"
      >
        {running && !open ? t('dds.buttonRunning', { percent }) : phase.kind === 'done' && !open ? t('dds.buttonReady') : t('dds.button')}
      </Button>
      <Modal
        open={open}
        onCancel={close}
        title={phase.kind === 'done' ? null : t('dds.title')}
        footer={
          phase.kind === 'done'
            ? [
                closeButton,
                <Button key="download" type="primary" loading={downloading} onClick={() => void download(phase.job)} data-testid="dds-download">
                  {t('dds.download')}
                </Button>,
              ]
            : phase.kind === 'missing' && onFix && fixable
              ? [
                  closeButton,
                  <Button
                    key="fix"
                    type="primary"
                    icon={<EditOutlined />}
                    onClick={() => {
                      close();
                      onFix(fixable.code);
                    }}
                    data-testid="dds-fix"
                  >
                    {t('dds.fix')}
                  </Button>,
                ]
              : [closeButton]
        }
        data-testid="dds-dialog"
      >
        {phase.kind === 'running' ? (
          <>
            <Typography.Paragraph>{t(`dds.steps.${phase.job?.progress.step ?? 'queued'}`, { defaultValue: t('dds.building') })}</Typography.Paragraph>
            <Progress percent={percent} status="active" data-testid="dds-progress" />
            <Typography.Paragraph type="secondary">{t('dds.backgroundHint')}</Typography.Paragraph>
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
            {filingHint ? (
              <Typography.Paragraph type="secondary" data-testid="dds-next-step">
                {t('dds.nextStep')}
              </Typography.Paragraph>
            ) : null}
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
