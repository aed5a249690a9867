import { describe, expect, it } from 'vitest';
import { formatMoney, formatQty, formatStockQty, formatUnitCost } from './format';

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

describe('formatStockQty', () => {
  it('shows counted units as whole numbers with grouping', () => {
    expect(formatStockQty('3095.000', 'pcs', 'en')).toBe('3,095');
    expect(formatStockQty('12.000', 'carton', 'zh')).toBe('12');
  });

  it('keeps three decimals for measured units', () => {
    expect(formatStockQty('12.5', 'kg', 'en')).toBe('12.500');
    expect(formatStockQty('1234.25', 'm2', 'en')).toBe('1,234.250');
  });

  it('without a unit formats like any quantity', () => {
    expect(formatStockQty('7.000', undefined, 'en')).toBe('7');
  });
});
