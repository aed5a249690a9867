import { describe, expect, it } from 'vitest';
import { canonicalDecimal, compareDecimals, decimalToNumber, formatDecimal, parseDecimal, roundHalfUp, sumDecimals } from './decimal';

describe('parseDecimal', () => {
  it('reads API decimal strings exactly', () => {
    expect(parseDecimal('0.674')).toBe(674n);
    expect(parseDecimal('500')).toBe(500000n);
    expect(parseDecimal('500.000')).toBe(500000n);
    expect(parseDecimal('.5')).toBe(500n);
    expect(parseDecimal('-5')).toBe(-5000n);
    expect(parseDecimal(' 12.3 ')).toBe(12300n);
  });
  it('rounds extra decimals half away from zero', () => {
    expect(parseDecimal('0.0005')).toBe(1n);
    expect(parseDecimal('0.0004')).toBe(0n);
    expect(parseDecimal('-1.2345')).toBe(-1235n);
  });
  it('cuts extra decimals when asked to', () => {
    expect(parseDecimal('0.0009', 3, 'truncate')).toBe(0n);
    expect(parseDecimal('-1.2349', 3, 'truncate')).toBe(-1234n);
  });
  it('takes numbers at their decimal value, not their binary one', () => {
    expect(parseDecimal(0.1 + 0.2)).toBe(300n);
    expect(parseDecimal(0.674)).toBe(674n);
  });
  it('refuses what is not a decimal', () => {
    for (const value of ['', 'abc', '1.2.3', '1e3', '.', null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(parseDecimal(value)).toBeNull();
    }
  });
  it('keeps other numbers of places', () => {
    expect(parseDecimal('3.14159', 2)).toBe(314n);
    expect(parseDecimal('7', 0)).toBe(7n);
  });
});

describe('formatDecimal', () => {
  it('writes the decimal text', () => {
    expect(formatDecimal(674n)).toBe('0.674');
    expect(formatDecimal(493260n)).toBe('493.260');
    expect(formatDecimal(-5n)).toBe('-0.005');
    expect(formatDecimal(7n, 0)).toBe('7');
  });
  it('round-trips through parseDecimal', () => {
    for (const text of ['0.000', '1.001', '-12.340', '99999999.999']) {
      expect(formatDecimal(parseDecimal(text) as bigint)).toBe(text);
    }
  });
  it('gives numbers for display', () => {
    expect(decimalToNumber(parseDecimal('12.345'))).toBe(12.345);
    expect(decimalToNumber(null)).toBe(0);
  });
});

describe('roundHalfUp', () => {
  it('rounds half away from zero as the server quantizes', () => {
    expect(roundHalfUp(10005n, 3, 2)).toBe(1001n);
    expect(roundHalfUp(10004n, 3, 2)).toBe(1000n);
    expect(roundHalfUp(-10005n, 3, 2)).toBe(-1001n);
    expect(roundHalfUp(12n, 0, 2)).toBe(1200n);
  });
});

describe('sumDecimals and compareDecimals', () => {
  it('adds without float error', () => {
    expect(sumDecimals(['0.10', '0.20'])).toBe('0.30');
    expect(sumDecimals(['0.1', '0.2', '', null])).toBe('0.30');
  });
  it('compares decimal text by value', () => {
    expect(compareDecimals('1.0', '1')).toBe(0);
    expect(compareDecimals('2', '10')).toBe(-1);
    expect(compareDecimals('0.001', 0)).toBe(1);
  });
});

describe('canonicalDecimal', () => {
  it('gives one text per value', () => {
    expect(canonicalDecimal('21.00')).toBe('21');
    expect(canonicalDecimal('100.000')).toBe('100');
    expect(canonicalDecimal('0.50')).toBe('0.5');
    expect(canonicalDecimal('007')).toBe('7');
    expect(canonicalDecimal('')).toBe('');
    expect(canonicalDecimal('abc')).toBe('abc');
  });
});
