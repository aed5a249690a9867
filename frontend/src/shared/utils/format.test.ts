import { describe, expect, it } from 'vitest';
import { formatMoney, formatQty, formatUnitCost } from './format';

describe('formatMoney', () => {
  it('formats in the language with the currency and two decimals', () => {
    expect(formatMoney('1234.5', 'EUR', 'en')).toBe('€1,234.50');
    expect(formatMoney('1234.5', 'USD', 'zh')).toBe('US$1,234.50');
  });

  it('leaves empty and non-numeric values alone', () => {
    expect(formatMoney(null, 'EUR', 'en')).toBe('');
    expect(formatMoney('', 'EUR', 'en')).toBe('');
    expect(formatMoney('abc', 'EUR', 'en')).toBe('abc');
  });

  it('falls back to code and amount for a currency Intl does not know', () => {
    expect(formatMoney('3', 'E1', 'en')).toBe('E1 3.00');
  });
});

describe('formatQty and formatUnitCost', () => {
  it('drops trailing zeros of quantities, at most three decimals', () => {
    expect(formatQty('100.000', 'en')).toBe('100');
    expect(formatQty('2.12345', 'en')).toBe('2.123');
    expect(formatQty(undefined, 'en')).toBe('');
  });

  it('shows unit costs with two to four decimals', () => {
    expect(formatUnitCost('2.5', 'en')).toBe('2.50');
    expect(formatUnitCost('2.12345', 'en')).toBe('2.1235');
  });
});
