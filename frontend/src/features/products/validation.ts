/**
 * Client-side checks that mirror the server's (apps/products/validators.py and the serializer), so a
 * form says what is wrong before it is sent. The server still decides.
 */

export function normalizeHsCode(value: string): string {
  return value.replace(/[\s.]/g, '');
}

export function isValidHsCode(value: string): boolean {
  return /^\d{4,10}$/.test(normalizeHsCode(value));
}

/** EAN-8, UPC-A, EAN-13 or GTIN-14 with a correct check digit. */
export function barcodeProblem(value: string): 'format' | 'check' | null {
  const digits = value.replace(/\s/g, '');
  if (!digits) return null;
  if (!/^(\d{8}|\d{12,14})$/.test(digits)) return 'format';
  const numbers = [...digits].map(Number);
  const check = numbers.pop() ?? 0;
  const total = numbers.reverse().reduce((sum, digit, index) => sum + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10 === check ? null : 'check';
}

const FALLBACK_CURRENCIES = ['EUR', 'USD', 'CNY', 'GBP', 'SEK', 'DKK', 'NOK', 'PLN', 'CZK', 'CHF', 'HUF', 'JPY'];

/** ISO 4217 codes the browser knows (all of them in current browsers). */
export function currencyCodes(): string[] {
  try {
    const codes = Intl.supportedValuesOf('currency');
    return codes.length > 0 ? codes : FALLBACK_CURRENCIES;
  } catch {
    return FALLBACK_CURRENCIES;
  }
}

/** A decimal string with at most `places` decimals (dot or comma). */
export function isDecimal(value: string, places: number): boolean {
  return new RegExp(`^\\d+([.,]\\d{1,${places}})?$`).test(value.trim());
}

export function toDecimalString(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = String(value).trim();
  return trimmed === '' ? null : trimmed.replace(',', '.');
}
