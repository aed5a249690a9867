import type { Product } from './api/types';

/** "400 × 300 × 200 mm", or null when no dimension is known. */
export function cartonDimensions(product: Pick<Product, 'carton_length_mm' | 'carton_width_mm' | 'carton_height_mm'>): string | null {
  const parts = [product.carton_length_mm, product.carton_width_mm, product.carton_height_mm];
  if (parts.every((part) => part == null)) return null;
  return `${parts.map((part) => part ?? '–').join(' × ')} mm`;
}

/** A money amount in the user's language, e.g. "€0.69"; the raw string when the currency is unknown. Null
 * when there is none, or when the user may not see prices (the server leaves the field out). */
export function formatMoney(amount: string | null | undefined, currency: string | undefined, language: string): string | null {
  if (amount == null || amount === '') return null;
  const value = Number(amount);
  try {
    return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en-GB', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    }).format(value);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}

export function formatWeight(value: string | null | undefined): string | null {
  return value == null || value === '' ? null : `${Number(value).toFixed(3)} kg`;
}
