import { App } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { useSession } from '@/shared/session/useSession';
import { useInvalidateWarehouse } from '../api/warehouse';
import { flushQueue, loadQueue, type FlushReport } from './scanQueue';

/**
 * The number of scans waiting to be sent, and sending them when the phone is back online. `onFlushed`
 * gets what a flush sent and what the server refused, so the page's scan log can say so.
 */
export function useScanQueue(onFlushed?: (report: FlushReport) => void) {
  const tenant = useSession((s) => s.tenantId);
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidateWarehouse();
  const count = () => loadQueue().filter((item) => item.tenant === tenant).length;
  const [pending, setPending] = useState(count);

  const flush = useCallback(async () => {
    const report = await flushQueue(tenant);
    if (report.sent) void message.success(t('queue.sent', { count: report.sent }));
    for (const refused of report.refused) void message.error(`${refused.request.body.code}: ${errorText(refused.error)}`);
    if (report.sent || report.refused.length) void invalidate();
    onFlushed?.(report);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- stable helpers
  }, [tenant]);

  useEffect(() => {
    const update = () => setPending(loadQueue().filter((item) => item.tenant === tenant).length);
    const online = () => void flush();
    window.addEventListener('warehouse-scan-queue', update);
    window.addEventListener('storage', update);
    window.addEventListener('online', online);
    if (navigator.onLine) void flush();
    return () => {
      window.removeEventListener('warehouse-scan-queue', update);
      window.removeEventListener('storage', update);
      window.removeEventListener('online', online);
    };
  }, [tenant, flush]);

  return { pending, flush };
}
