/** Dates in the user's language and zone. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(language === 'zh' ? 'zh-CN' : 'en');
}

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
