/** Money, quantities, unit costs and dates in the user's language, the same on every page. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

function locale(language: string): string {
  return language === 'zh' ? 'zh-CN' : 'en-GB';
}

/** "1234.5" + "EUR" -> "€1,234.50" in the user's language. */
export function formatMoney(amount: string | null | undefined, currency: string, language: string): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const value = Number(amount);
  if (!Number.isFinite(value)) return amount;
  try {
    return new Intl.NumberFormat(locale(language), { style: 'currency', currency, minimumFractionDigits: 2 }).format(value);
  } catch {
    return `${currency} ${value.toFixed(2)}`;
  }
}

/** Quantities: up to 3 decimals, no trailing zeros ("100.000" -> "100"). */
export function formatQty(value: string | null | undefined, language: string): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: 3 }).format(n);
}

/** A whole count with grouping: 10000 -> "10,000". */
export function formatCount(n: number, language: string): string {
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: 0 }).format(n);
}

/** Units counted in whole things (backend Product.Unit); the others (kg, m2) are measured. */
const COUNTED_UNITS = new Set(['pcs', 'carton', 'set', 'pack', 'roll', 'pallet']);

/**
 * A stock quantity by the product's unit of measure: counted units as whole numbers with grouping
 * ("3095.000" pcs -> "3,095"; a fraction, which a count should not have, stays visible), measured
 * units with their three decimals ("12.5" kg -> "12.500").
 */
export function formatStockQty(value: string | null | undefined, unit: string | null | undefined, language: string): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  if (unit && !COUNTED_UNITS.has(unit)) {
    return new Intl.NumberFormat(locale(language), { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(n);
  }
  return formatQty(value, language);
}

/** Unit costs: at least 2, at most 4 decimals. */
export function formatUnitCost(value: string | null | undefined, language: string): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return new Intl.NumberFormat(locale(language), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(n);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parse(value: string): Date | null {
  // A date without a time ("2026-11-26") is that calendar day wherever the browser is: read it as UTC and
  // show it in UTC, so it never slips to the day before.
  const date = DATE_ONLY.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date the same way on every page and document: "26 Nov 2026" (en), "2026年11月26日" (zh). */
export function formatDate(value: string | null | undefined, language: string): string {
  if (!value) return '—';
  const date = parse(value);
  if (!date) return value;
  return new Intl.DateTimeFormat(locale(language), {
    dateStyle: 'medium',
    ...(DATE_ONLY.test(value) ? { timeZone: 'UTC' } : {}),
  }).format(date);
}

/** A moment: "26 Nov 2026, 18:05" (en), "2026年11月26日 18:05" (zh), in the browser's time zone. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '—';
  const date = parse(value);
  if (!date) return value;
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function useFormatters() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    money: useCallback((amount: string | null | undefined, currency: string) => formatMoney(amount, currency, language), [language]),
    qty: useCallback((value: string | null | undefined) => formatQty(value, language), [language]),
    unitCost: useCallback((value: string | null | undefined) => formatUnitCost(value, language), [language]),
    date: useCallback((value: string | null | undefined) => formatDate(value, language), [language]),
    dateTime: useCallback((value: string | null | undefined) => formatDateTime(value, language), [language]),
    language,
  };
}
