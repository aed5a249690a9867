import type { Product } from './api/types';

/** "400 × 300 × 200 mm", or null when no dimension is known. */
export function cartonDimensions(product: Pick<Product, 'carton_length_mm' | 'carton_width_mm' | 'carton_height_mm'>): string | null {
  const parts = [product.carton_length_mm, product.carton_width_mm, product.carton_height_mm];
  if (parts.every((part) => part === null)) return null;
  return `${parts.map((part) => part ?? '–').join(' × ')} mm`;
}

/** A money amount in the user's language, e.g. "€0.69"; the raw string when the currency is unknown. */
export function formatMoney(amount: string | null, currency: string, language: string): string | null {
  if (amount === null || amount === '') return null;
  const value = Number(amount);
  try {
    return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en-GB', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

export function formatWeight(value: string | null): string | null {
  return value === null || value === '' ? null : `${Number(value).toFixed(3)} kg`;
}
