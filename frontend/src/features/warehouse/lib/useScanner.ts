import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { useSession } from '@/shared/session/useSession';
import { useInvalidateWarehouse, type ScanRequest, type ScanResult } from '../api/warehouse';
import type { ScanLogEntry } from '../components/ScanLog';
import { scanFeedback } from './feedback';
import { newScanId, sendScan } from './scanQueue';
import { useScanQueue } from './useScanQueue';

/** Sends scans (queued while offline), plays the feedback and keeps the page's scan log. */
export function useScanner(describe: (result: ScanResult) => string) {
  const { t } = useTranslation('warehouse');
  const tenant = useSession((s) => s.tenantId);
  const errorText = useErrorText();
  const invalidate = useInvalidateWarehouse();
  const queue = useScanQueue();
  const [log, setLog] = useState<ScanLogEntry[]>([]);
  const [busy, setBusy] = useState(false);

  const scan = async (code: string, build: (scanId: string) => ScanRequest) => {
    const id = newScanId();
    setBusy(true);
    const outcome = await sendScan<ScanResult>(build(id), tenant);
    setBusy(false);
    let entry: ScanLogEntry;
    if (outcome.state === 'done') {
      entry = { id, code, state: 'done', text: outcome.result.duplicate ? t('scan.duplicate') : describe(outcome.result) };
      void invalidate();
    } else if (outcome.state === 'queued') {
      entry = { id, code, state: 'queued', text: t('queue.queued') };
    } else {
      entry = { id, code, state: 'refused', text: errorText(outcome.error) };
    }
    scanFeedback(entry.state !== 'refused');
    setLog((entries) => [entry, ...entries].slice(0, 30));
    return entry;
  };

  return { scan, log, busy, pending: queue.pending };
}
