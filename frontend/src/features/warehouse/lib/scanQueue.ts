/**
 * Scans made while offline are kept in local storage and sent, in order, when the phone is back online.
 * Each scan carries a scan id made on the phone; the server records a scan id once, so a scan sent
 * again (a flush cut off after the server answered) is answered as a duplicate, never done twice.
 */
import { isApiError } from '@/api/errors';
import { post } from '@/api/http';
import type { ScanRequest } from '../api/warehouse';

const STORAGE_KEY = 'warehouse.scanQueue';

export interface QueuedScan extends ScanRequest {
  tenant: string | null;
  queuedAt: number;
}

export type ScanOutcome<T> =
  | { state: 'done'; result: T }
  | { state: 'queued' }
  | { state: 'refused'; error: unknown };

export type Sender = <T>(url: string, body: unknown) => Promise<T>;

const defaultSend: Sender = (url, body) => post(url, body);

export function newScanId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

export function loadQueue(): QueuedScan[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as QueuedScan[]) : [];
  } catch {
    return [];
  }
}

function saveQueue(queue: QueuedScan[]): void {
  if (queue.length) localStorage.setItem(STORAGE_KEY, JSON.stringify(queue));
  else localStorage.removeItem(STORAGE_KEY);
  window.dispatchEvent(new Event('warehouse-scan-queue'));
}

function isOffline(error: unknown): boolean {
  return isApiError(error) && error.isNetworkError;
}

/** Sends one scan; offline (or the network fails) it is queued instead. */
export async function sendScan<T>(request: ScanRequest, tenant: string | null, send: Sender = defaultSend): Promise<ScanOutcome<T>> {
  const enqueue = () => {
    saveQueue([...loadQueue(), { ...request, tenant, queuedAt: Date.now() }]);
    return { state: 'queued' } as const;
  };
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return enqueue();
  try {
    return { state: 'done', result: await send<T>(request.url, request.body) };
  } catch (error) {
    if (isOffline(error)) return enqueue();
    return { state: 'refused', error };
  }
}

let flushing: Promise<FlushReport> | null = null;

export interface FlushReport {
  sent: number;
  /** The scans the server took, with its answer: the page that made them shows them as sent. */
  accepted: { request: QueuedScan; result: unknown }[];
  refused: { request: QueuedScan; error: unknown }[];
  remaining: number;
}

/** Sends the queued scans of this tenant in order; stops at the first network failure. One flush at a time. */
export function flushQueue(tenant: string | null, send: Sender = defaultSend): Promise<FlushReport> {
  if (flushing) return flushing;
  flushing = (async () => {
    const report: FlushReport = { sent: 0, accepted: [], refused: [], remaining: 0 };
    for (;;) {
      const next = loadQueue().find((item) => item.tenant === tenant);
      if (!next) break;
      try {
        const result = await send(next.url, next.body);
        report.sent += 1;
        report.accepted.push({ request: next, result });
      } catch (error) {
        if (isOffline(error)) break;
        report.refused.push({ request: next, error });
      }
      // Removed only after the server answered: a scan cut off before is sent again with the same id.
      saveQueue(loadQueue().filter((item) => item.body.scan_id !== next.body.scan_id));
    }
    report.remaining = loadQueue().filter((item) => item.tenant === tenant).length;
    return report;
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}
