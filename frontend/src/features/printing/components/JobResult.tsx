import { Alert, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PrintJob } from '../api/printing';
import { reportedRaw, reportedState } from '../lib/format';
import styles from './printing.module.css';
import { JobStatusTag, PrinterStateTag } from './StatusTags';

/** A job's outcome: status, the printer's `~HS` state in words and the raw strings, the error. */
export function JobResult({ job }: { job: PrintJob }) {
  const { t } = useTranslation('printing');
  const state = reportedState(job.printer_status);
  const raw = reportedRaw(job.printer_status);
  return (
    <Descriptions size="small" column={1} bordered data-testid="job-result">
      <Descriptions.Item label={t('jobs.job')}>#{job.id} · {job.source_display}</Descriptions.Item>
      <Descriptions.Item label={t('jobs.status')}>
        <JobStatusTag status={job.status} />
      </Descriptions.Item>
      <Descriptions.Item label={t('jobs.printerState')}>{state ? <PrinterStateTag state={state} /> : '—'}</Descriptions.Item>
      {raw.length > 0 ? (
        <Descriptions.Item label={t('console.rawStatus')}>
          {raw.map((line, index) => (
            <Typography.Text key={index} code className={styles.rawLine}>
              {line}
            </Typography.Text>
          ))}
        </Descriptions.Item>
      ) : null}
      {job.error ? (
        <Descriptions.Item label={t('jobs.error')}>
          <Alert type="error" showIcon title={job.error} />
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}
