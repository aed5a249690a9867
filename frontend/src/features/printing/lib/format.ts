/** Dates in the user's language and zone (one formatter for the whole app: shared/utils/format.ts). */
export { formatDateTime } from '@/shared/utils/format';

/** The `~HS` state the agent reported for a job (printer_status.state), if any. */
export function reportedState(printerStatus: unknown): string | undefined {
  if (printerStatus && typeof printerStatus === 'object' && 'state' in printerStatus) {
    const state = (printerStatus as { state?: unknown }).state;
    return typeof state === 'string' && state ? state : undefined;
  }
  return undefined;
}

/** The raw `~HS` strings the agent reported for a job. */
export function reportedRaw(printerStatus: unknown): string[] {
  if (printerStatus && typeof printerStatus === 'object' && 'raw' in printerStatus) {
    const raw = (printerStatus as { raw?: unknown }).raw;
    return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
  }
  return [];
}
