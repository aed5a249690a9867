import { describe, expect, it } from 'vitest';
import { isBic, isEori, isIban, isPhone, isVat, normalizeIdentifier } from './operatorRules';

describe('operator identifier rules (as the server checks them)', () => {
  it('normalises typed identifiers', () => {
    expect(normalizeIdentifier(' nl 8623-45678.b01 ')).toBe('NL862345678B01');
  });

  it('accepts an EORI number of a country code and up to 15 letters or digits', () => {
    expect(isEori('NL862345678')).toBe(true);
    expect(isEori('de 1234567 89012345')).toBe(true);
    expect(isEori('')).toBe(true);
    expect(isEori('862345678')).toBe(false);
    expect(isEori('NL1234567890123456')).toBe(false);
    expect(isEori('NL')).toBe(false);
  });

  it('accepts a VAT number with its country prefix', () => {
    expect(isVat('NL862345678B01')).toBe(true);
    expect(isVat('EL123456789')).toBe(true);
    expect(isVat('NL1')).toBe(false);
    expect(isVat('NL86234567#B01')).toBe(false);
  });

  it('accepts phone numbers of digits and separators', () => {
    expect(isPhone('+31 10 123 4567')).toBe(true);
    expect(isPhone('(010) 123-4567')).toBe(true);
    expect(isPhone('call me')).toBe(false);
  });

  it('checks an IBAN by its check digits (ISO 7064 MOD 97-10) and a BIC by its format', () => {
    expect(isIban('NL91 ABNA 0417 1643 00')).toBe(true);
    expect(isIban('de89370400440532013000')).toBe(true);
    expect(isIban('')).toBe(true);
    expect(isIban('NL91ABNA0417164301')).toBe(false);
    expect(isIban('NL91')).toBe(false);
    expect(isBic('ABNANL2A')).toBe(true);
    expect(isBic('cobadeffxxx')).toBe(true);
    expect(isBic('ABNA')).toBe(false);
    expect(isBic('1BNANL2A')).toBe(false);
  });
});
