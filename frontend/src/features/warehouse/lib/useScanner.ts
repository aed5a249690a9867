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
  const [log, setLog] = useState<ScanLogEntry[]>([]);
  // After reconnecting: a queued entry that was sent says what the server did; one it refused says why,
  // and stays in the log (a refusal of a scan queued on another page is added), not only as a toast.
  const queue = useScanQueue((report) => {
    if (!report.accepted.length && !report.refused.length) return;
    setLog((entries) => {
      const next = entries.map((entry) => {
        const accepted = report.accepted.find((a) => a.request.body.scan_id === entry.id);
        if (accepted) {
          const result = accepted.result as ScanResult | undefined;
          const text = result && typeof result === 'object' && 'duplicate' in result ? (result.duplicate ? t('scan.duplicate') : describe(result)) : t('queue.sentLater');
          return { ...entry, state: 'done' as const, text };
        }
        const refused = report.refused.find((r) => r.request.body.scan_id === entry.id);
        if (refused) return { ...entry, state: 'refused' as const, text: errorText(refused.error) };
        return entry;
      });
      const elsewhere = report.refused
        .filter((r) => !entries.some((entry) => entry.id === r.request.body.scan_id))
        .map((r) => ({ id: r.request.body.scan_id, code: r.request.body.code, state: 'refused' as const, text: errorText(r.error) }));
      return [...elsewhere, ...next].slice(0, 30);
    });
  });
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
