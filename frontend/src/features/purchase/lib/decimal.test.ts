import { describe, expect, it } from 'vitest';
import { compareQty, fromScaled, lineAmount, subtractQty, sumAmounts, toScaled } from './decimal';

describe('decimal helpers', () => {
  it('scales decimal strings exactly', () => {
    expect(toScaled('1.25', 4)).toBe(12500n);
    expect(toScaled('.5', 2)).toBe(50n);
    expect(toScaled('abc', 2)).toBeNull();
    expect(toScaled('', 2)).toBeNull();
    expect(fromScaled(12345n, 3)).toBe('12.345');
    expect(fromScaled(5n, 3)).toBe('0.005');
  });

  it('rounds each line half up to cents, like the server', () => {
    expect(lineAmount('100', '1.25')).toBe('125.00');
    expect(lineAmount('3', '0.3333')).toBe('1.00');
    expect(lineAmount('1', '0.005')).toBe('0.01');
    expect(lineAmount('1', '0.0049')).toBe('0.00');
    expect(lineAmount('', '2')).toBe('0.00');
  });

  it('sums amounts without float error', () => {
    expect(sumAmounts(['0.10', '0.20'])).toBe('0.30');
    expect(sumAmounts([lineAmount('100', '1.25'), lineAmount('3', '0.3333')])).toBe('126.00');
  });

  it('subtracts and compares quantities', () => {
    expect(subtractQty('100.000', '60')).toBe('40.000');
    expect(compareQty('1.0', '1')).toBe(0);
    expect(compareQty('2', '10')).toBe(-1);
  });
});
