/** Formatting for the trace page with the browser's own Intl (no date or i18n library). */
import type { TraceText } from './traceText';

export type TraceLanguage = 'zh' | 'en';

const locale = (language: TraceLanguage) => (language === 'zh' ? 'zh-CN' : 'en-GB');

/** "2025-03" -> "Mar 2025" / "2025年3月". */
export function formatMonth(value: string, language: TraceLanguage): string {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return new Intl.DateTimeFormat(locale(language), { year: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
}

export function formatDate(value: string | null, language: TraceLanguage): string {
  if (!value) return '';
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

export function harvestPeriod(begin: string, end: string, language: TraceLanguage): string {
  if (!begin && !end) return '';
  if (begin && end && begin !== end) return `${formatMonth(begin, language)} – ${formatMonth(end, language)}`;
  return formatMonth(begin || end, language);
}

/** The country's name in the page's language, falling back to the server's English name. */
export function countryName(code: string, fallback: string, language: TraceLanguage): string {
  if (!code) return fallback;
  try {
    return new Intl.DisplayNames([locale(language)], { type: 'region' }).of(code.toUpperCase()) ?? fallback;
  } catch {
    return fallback || code;
  }
}

/**
 * "FI" for the country badge, or '' for anything that is not a two-letter code. A badge of letters, not a
 * flag emoji: a phone or desktop without an emoji font draws regional indicator symbols as empty boxes.
 */
export function countryBadge(code: string): string {
  return /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : '';
}

export function formatArea(hectares: number | null | undefined, language: TraceLanguage, text: TraceText): string {
  if (hectares === null || hectares === undefined) return '';
  const digits = hectares >= 100 ? 0 : hectares >= 1 ? 1 : 2;
  const number = new Intl.NumberFormat(locale(language), { maximumFractionDigits: digits }).format(hectares);
  return text.hectares.replace('{{value}}', number);
}

/** Parent vendor name: cname unless the language is English, falling back to name (docs/specification.md section 3). */
export function supplierName(supplier: { name: string; cname: string }, language: TraceLanguage): string {
  return language === 'en' ? supplier.name || supplier.cname : supplier.cname || supplier.name;
}

export function productName(data: { product_name: string; product_name_zh: string }, language: TraceLanguage): string {
  return language === 'zh' ? data.product_name_zh || data.product_name : data.product_name || data.product_name_zh;
}

/** A certificate whose last valid day (YYYY-MM-DD) is before today, in the reader's time zone, has expired. */
export function certificateExpired(validUntil: string, today: Date = new Date()): boolean {
  const pad = (n: number) => String(n).padStart(2, '0');
  const iso = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  return validUntil.slice(0, 10) < iso;
}
