import { DownloadOutlined, InboxOutlined, RedoOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Modal, Popconfirm, Progress, Steps, Typography, Upload } from 'antd';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { formatFileSize } from '@/shared/utils/files';
import {
  IMPORT_ACCEPT,
  IMPORT_FILE_FORMATS,
  IMPORT_POLL_MS,
  MAX_IMPORT_BYTES,
  cancelImport,
  downloadImportTemplate,
  findRunningImport,
  followImport,
  isImportFinished,
  isRejectedWithRowErrors,
  retryImport,
  runImport,
  type ImportJob,
  type ImportReport,
} from './importApi';
import { ImportReportView } from './ImportReportView';
import styles from './ImportDialog.module.css';

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** The list endpoint with its trailing slash, e.g. `/api/products/`. */
  endpoint: string;
  /** The kind of record the endpoint imports (the model's label, e.g. `products.product`): an import of
   * this kind already running when the dialog opens is shown with its progress. */
  kind: string;
  /** What is imported, already translated (e.g. "Products"). */
  resourceLabel: string;
  /** File name stem for the template when the server does not name it. */
  fileStem: string;
  /** Called after a successful import (refresh lists). */
  onImported?: (report: ImportReport) => void;
  /** How often the running job is asked for its progress (ms). */
  pollMs?: number;
}

type Stage = 'choose' | 'checked' | 'done';

/**
 * Import from CSV/XLSX in three steps: choose a file (or download the template), check it (a dry run
 * listing every row error; nothing is written) and import it (all rows or none). Checking and importing
 * run as background jobs on the server: the dialog uploads the file, then shows the job's progress until
 * it has finished, then its result. Opened while an import of its kind runs (another tab, another user,
 * or before a reload), it follows that import instead until it has finished.
 *
 * A job that is stuck (its worker is gone, or it waited past the server's limit) or failed in a way
 * another run may cure offers Retry (the same file as a new job, followed like an upload); a queued or
 * stuck job offers Cancel, after a confirmation. A job a live worker writes is not cancellable: the
 * server refuses, and the dialog says why.
 */
export function ImportDialog({
  open,
  onClose,
  endpoint,
  kind,
  resourceLabel,
  fileStem,
  onImported,
  pollMs = IMPORT_POLL_MS,
}: ImportDialogProps) {
  const { t } = useTranslation('dataImport');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>('choose');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [uploadPercent, setUploadPercent] = useState(0);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [resumed, setResumed] = useState<ImportJob | null>(null);
  // A finished job that may be started again from its stored file (the failure's Retry).
  const [retryable, setRetryable] = useState<ImportJob | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [acting, setActing] = useState<'retry' | 'cancel' | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const polling = useRef<AbortController | null>(null);

  // Stop following the job when the dialog goes away (the import itself goes on on the server).
  useEffect(() => () => polling.current?.abort(), []);

  const reset = () => {
    setFile(null);
    setStage('choose');
    setReport(null);
    setFileError(null);
    setUploadPercent(0);
    setJob(null);
    setResumed(null);
    setRetryable(null);
    setNotice(null);
    setActionError(null);
  };

  // While the user's own upload runs the dialog stays open; an import it only follows, or one that is
  // stuck, may be left.
  const closable = busy === null || resumed !== null || Boolean(job?.stuck);
  const close = () => {
    if (!closable) return;
    if (busy !== null) {
      polling.current?.abort();
      setBusy(null);
    }
    reset();
    onClose();
  };

  const choose = (chosen: File) => {
    setReport(null);
    setStage('choose');
    if (chosen.size > MAX_IMPORT_BYTES) {
      setFile(null);
      setFileError(t('fileTooLarge', { size: formatFileSize(chosen.size), limit: formatFileSize(MAX_IMPORT_BYTES) }));
      return;
    }
    setFileError(null);
    setFile(chosen);
  };

  /** Runs `follow` (an upload and its job, or a job already running) to its end and shows the result. */
  const track = async (dryRun: boolean, follow: (signal: AbortSignal) => Promise<ImportJob>) => {
    setBusy(dryRun ? 'check' : 'import');
    setFileError(null);
    setRetryable(null);
    setNotice(null);
    setActionError(null);
    setReport(null);
    setUploadPercent(0);
    setJob(null);
    const controller = new AbortController();
    polling.current = controller;
    try {
      const finished = await follow(controller.signal);
      if (finished.status === 'done') {
        setReport(finished);
        setStage(dryRun ? 'checked' : 'done');
        if (!dryRun) {
          void message.success(t('report.imported', { created: finished.created, updated: finished.updated }));
          onImported?.(finished);
        }
      } else if (isRejectedWithRowErrors(finished)) {
        // Row errors: nothing was written; the report lists them by row, as a check does.
        setReport({ ...finished, dry_run: true });
        setStage('checked');
      } else if (finished.status === 'cancelled') {
        setNotice(finished.message || t('actions.cancelled'));
      } else {
        setFileError(finished.message || t('failed'));
        if (finished.can_retry) setRetryable(finished);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      setFileError(errorText(error));
    } finally {
      if (!controller.signal.aborted) {
        setBusy(null);
        setJob(null);
      }
    }
  };

  const run = async (dryRun: boolean) => {
    if (!file) return;
    setResumed(null);
    await track(dryRun, (signal) =>
      runImport(endpoint, file, { dryRun, onUploadProgress: setUploadPercent, onJob: setJob, signal, pollMs }),
    );
  };

  /** Starts the job's file again as a new job and follows that one (the old one stays failed). */
  const retry = async (from: ImportJob) => {
    setActing('retry');
    setActionError(null);
    try {
      const started = await retryImport(from.id);
      polling.current?.abort();
      setResumed(null);
      setActing(null);
      await track(started.dry_run, (signal) => followImport(started, { onJob: setJob, signal, pollMs }));
    } catch (error) {
      setActing(null);
      setActionError(errorText(error));
    }
  };

  const cancelJob = async (target: ImportJob) => {
    setActing('cancel');
    setActionError(null);
    try {
      const cancelled = await cancelImport(target.id);
      polling.current?.abort();
      setBusy(null);
      setJob(null);
      setResumed(null);
      setNotice(cancelled.message || t('actions.cancelled'));
    } catch (error) {
      setActionError(errorText(error));
    } finally {
      setActing(null);
    }
  };

  // On opening, an import of this kind that is already running is followed to its end.
  const followRunning = useEffectEvent((running: ImportJob) => {
    setResumed(running);
    void track(false, (signal) => followImport(running, { onJob: setJob, signal, pollMs }));
  });
  useEffect(() => {
    if (!open) return undefined;
    let active = true;
    findRunningImport(kind).then(
      (running) => {
        if (active && running) followRunning(running);
      },
      // The dialog works without it: starting an import would then say that one is running.
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [open, kind]);

  const template = async (format: (typeof IMPORT_FILE_FORMATS)[number]) => {
    try {
      await downloadImportTemplate(endpoint, format, fileStem);
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const canImport = stage === 'checked' && report !== null && report.errors.length === 0 && report.rows_valid > 0;
  const current = stage === 'choose' ? 0 : stage === 'checked' ? 1 : 2;

  return (
    <Modal
      open={open}
      onCancel={close}
      title={t('title', { resource: resourceLabel })}
      width={860}
      destroyOnHidden
      mask={{ closable }}
      footer={
        <Flex justify="end" gap="small" wrap>
          <Button onClick={close} disabled={!closable}>
            {stage === 'done' ? t('close') : t('cancel')}
          </Button>
          {stage !== 'done' ? (
            <Button onClick={() => void run(true)} disabled={!file} loading={busy === 'check'} data-testid="import-check">
              {t('check')}
            </Button>
          ) : null}
          {stage !== 'done' ? (
            <Button type="primary" onClick={() => void run(false)} disabled={!canImport} loading={busy === 'import'} data-testid="import-commit">
              {t('import')}
            </Button>
          ) : (
            <Button type="primary" onClick={reset}>
              {t('another')}
            </Button>
          )}
        </Flex>
      }
    >
      <Flex vertical gap="middle">
        <Steps
          size="small"
          current={current}
          items={[{ title: t('steps.choose') }, { title: t('steps.check') }, { title: t('steps.import') }]}
        />
        <Flex align="center" gap="small" wrap className={styles.templates}>
          <Typography.Text type="secondary">{t('templateHint')}</Typography.Text>
          {IMPORT_FILE_FORMATS.map((format) => (
            <Button key={format} size="small" icon={<DownloadOutlined />} onClick={() => void template(format)}>
              {t(`template.${format}`)}
            </Button>
          ))}
        </Flex>
        {stage !== 'done' ? (
          <Upload.Dragger
            accept={IMPORT_ACCEPT}
            multiple={false}
            maxCount={1}
            showUploadList={false}
            beforeUpload={(chosen) => {
              choose(chosen);
              return false;
            }}
            disabled={busy !== null}
            data-testid="import-file"
          >
            <p className="p-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="p-upload-text">{file ? file.name : t('dropHint')}</p>
            <p className="p-upload-hint">
              {file ? formatFileSize(file.size) : t('rules', { limit: formatFileSize(MAX_IMPORT_BYTES), rows: '10,000' })}
            </p>
          </Upload.Dragger>
        ) : null}
        {resumed ? (
          <Alert
            type="info"
            showIcon
            data-testid="import-running"
            title={
              resumed.started_by_name
                ? t('running', { file: resumed.file_name, name: resumed.started_by_name })
                : t('runningAnonymous', { file: resumed.file_name })
            }
          />
        ) : null}
        {busy ? <ImportProgress job={job} uploadPercent={uploadPercent} /> : null}
        {busy && job && (job.can_retry || job.can_cancel) ? (
          <Alert
            type={job.stuck ? 'warning' : 'info'}
            showIcon
            data-testid="import-job-actions"
            title={job.stuck ? t('actions.stuck') : t('actions.queued')}
            action={
              <JobActions
                job={job}
                acting={acting}
                onRetry={() => void retry(job)}
                onCancel={() => void cancelJob(job)}
              />
            }
          />
        ) : null}
        {fileError ? (
          <Alert
            type="error"
            showIcon
            title={fileError}
            data-testid="import-file-error"
            action={
              retryable ? <JobActions job={retryable} acting={acting} onRetry={() => void retry(retryable)} onCancel={() => undefined} /> : undefined
            }
          />
        ) : null}
        {actionError ? <Alert type="error" showIcon title={actionError} data-testid="import-action-error" role="alert" /> : null}
        {notice ? <Alert type="info" showIcon title={notice} data-testid="import-notice" /> : null}
        {report ? <ImportReportView report={report} /> : null}
      </Flex>
    </Modal>
  );
}

/** Retry (a stuck or retryable failed job) and Cancel (a queued or stuck job, after a confirmation). */
function JobActions({
  job,
  acting,
  onRetry,
  onCancel,
}: {
  job: ImportJob;
  acting: 'retry' | 'cancel' | null;
  onRetry: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('dataImport');
  return (
    <Flex gap="small" wrap>
      {job.can_retry ? (
        <Button size="small" icon={<RedoOutlined />} loading={acting === 'retry'} disabled={acting !== null} onClick={onRetry} data-testid="import-retry">
          {t('actions.retry')}
        </Button>
      ) : null}
      {job.can_cancel && !isImportFinished(job) ? (
        <Popconfirm
          title={t('actions.cancelQuestion')}
          description={t('actions.cancelExplained')}
          okText={t('actions.cancelConfirm')}
          cancelText={t('actions.keep')}
          okButtonProps={{ danger: true }}
          onConfirm={onCancel}
        >
          <Button size="small" danger icon={<StopOutlined />} loading={acting === 'cancel'} disabled={acting !== null} data-testid="import-cancel-job">
            {t('actions.cancel')}
          </Button>
        </Popconfirm>
      ) : null}
    </Flex>
  );
}

/** The upload, then the job's phase and rows done, over one progress bar. */
function ImportProgress({ job, uploadPercent }: { job: ImportJob | null; uploadPercent: number }) {
  const { t } = useTranslation('dataImport');
  const label = job
    ? t(`phase.${job.phase}`, { done: job.processed_rows.toLocaleString(), total: job.total_rows.toLocaleString() })
    : t('phase.uploading', { percent: uploadPercent });
  return (
    <Flex vertical gap={4} data-testid="import-progress" role="status" aria-live="polite">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Progress
        percent={job ? job.progress : uploadPercent}
        size="small"
        className={styles.progress}
        status="active"
        aria-label={label}
      />
    </Flex>
  );
}
