import { describe, expect, it } from 'vitest';
import { barcodeProblem, isDecimal, isValidHsCode, normalizeHsCode, toDecimalString } from './validation';

describe('product validation mirrors the server', () => {
  it('accepts HS codes of 4 to 10 digits with dots and spaces', () => {
    expect(normalizeHsCode('4819.10 00')).toBe('48191000');
    expect(isValidHsCode('4819.10')).toBe(true);
    expect(isValidHsCode('481')).toBe(false);
    expect(isValidHsCode('48191000001')).toBe(false);
    expect(isValidHsCode('48A9')).toBe(false);
  });

  it('checks EAN check digits', () => {
    expect(barcodeProblem('')).toBeNull();
    expect(barcodeProblem('4006381333931')).toBeNull();
    expect(barcodeProblem('4006381333932')).toBe('check');
    expect(barcodeProblem('12345')).toBe('format');
    expect(barcodeProblem('96385074')).toBeNull();
  });

  it('reads decimals with a dot or a comma', () => {
    expect(isDecimal('0,320', 3)).toBe(true);
    expect(isDecimal('0.3201', 3)).toBe(false);
    expect(toDecimalString(' 1,5 ')).toBe('1.5');
    expect(toDecimalString('')).toBeNull();
  });
});
