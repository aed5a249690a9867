/** How the report shows a group's value and a figure, in the user's language. */
import { formatDate } from '@/shared/utils/format';
import type { Dataset } from '../api/reportLab';
import type { CellValue } from './reportModel';

export function splitKey(key: string): { field: string; grain: string | null } {
  const [field = key, grain = null] = key.split(':');
  return { field, grain };
}

export function formatPeriod(value: string, grain: string, language: string): string {
  const date = new Date(`${value}T00:00:00`);
  if (Number.isNaN(date.getTime())) return value;
  const year = date.getFullYear();
  switch (grain) {
    case 'year':
      return String(year);
    case 'quarter':
      return `${year} Q${Math.floor(date.getMonth() / 3) + 1}`;
    case 'month':
      return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short' }).format(date);
    default:
      return formatDate(value, language);
  }
}

/** A group value as text: a choice's label, a period, or the value; `empty` for none. */
export function groupText(dataset: Dataset | undefined, key: string, value: CellValue, language: string, empty: string): string {
  if (value === null || value === '') return empty;
  const { field, grain } = splitKey(key);
  const dimension = dataset?.dimensions.find((d) => d.name === field);
  if (grain && typeof value === 'string') return formatPeriod(value, grain, language);
  const choice = dimension?.choices.find((c) => c.value === value);
  return choice ? choice.label : String(value);
}

export function formatNumber(value: CellValue, language: string): string {
  if (value === null || value === '') return '';
  const number = Number(value);
  if (Number.isNaN(number)) return String(value);
  return new Intl.NumberFormat(language, { maximumFractionDigits: 3 }).format(number);
}
