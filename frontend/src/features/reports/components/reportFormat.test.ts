import { describe, expect, it } from 'vitest';
import { formatPeriod } from './reportFormat';

describe('a report period', () => {
  it('prints a day as every page prints days', () => {
    expect(formatPeriod('2026-11-26', 'day', 'en')).toBe('26 Nov 2026');
    expect(formatPeriod('2026-11-26', 'day', 'zh')).toBe('2026年11月26日');
  });

  it('prints a year and a quarter', () => {
    expect(formatPeriod('2026-01-01', 'year', 'en')).toBe('2026');
    expect(formatPeriod('2026-04-01', 'quarter', 'en')).toBe('2026 Q2');
  });
});
