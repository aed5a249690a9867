import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { JobStatus, PrinterState } from '../api/printing';

const JOB_COLOURS: Record<JobStatus, string> = {
  queued: 'default',
  sent: 'processing',
  printed: 'success',
  failed: 'error',
  expired: 'warning',
};

const PRINTER_COLOURS: Record<PrinterState, string> = {
  unknown: 'default',
  ready: 'success',
  paper_out: 'error',
  head_open: 'error',
  paused: 'warning',
  ribbon_out: 'error',
  no_answer: 'error',
  unreachable: 'error',
};

export function JobStatusTag({ status }: { status: JobStatus }) {
  const { t } = useTranslation('printing');
  return (
    <Tag color={JOB_COLOURS[status]} data-testid="job-status" data-status={status}>
      {t(`jobStatus.${status}`)}
    </Tag>
  );
}

export function PrinterStateTag({ state }: { state: string }) {
  const { t } = useTranslation('printing');
  const known = (state in PRINTER_COLOURS ? state : 'unknown') as PrinterState;
  return <Tag color={PRINTER_COLOURS[known]}>{t(`printerState.${known}`)}</Tag>;
}

export function AgentOnlineTag({ online }: { online: boolean }) {
  const { t } = useTranslation('printing');
  return <Tag color={online ? 'success' : 'default'}>{online ? t('agent.online') : t('agent.offline')}</Tag>;
}
