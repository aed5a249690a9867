import { describe, expect, it } from 'vitest';
import { isValidBatchCode, suggestBatchCode } from './batchCode';

describe('production batch codes', () => {
  it.each(['20261121A', '20240229Z', '20261231B'])('accepts %s', (code) => {
    expect(isValidBatchCode(code)).toBe(true);
  });

  it.each(['2026-11-21A', '20261121', '20261121a', '20261121AB', '20261321A', '20230229A', '20261100A', 'A20261121', ''])(
    'refuses %s',
    (code) => {
      expect(isValidBatchCode(code)).toBe(false);
    },
  );

  it("suggests today's date with the first free letter", () => {
    const today = new Date(2026, 10, 21);
    expect(suggestBatchCode([], today)).toBe('20261121A');
    expect(suggestBatchCode(['20261121A', '20261121B', '20261120C'], today)).toBe('20261121C');
    expect(isValidBatchCode(suggestBatchCode([], today))).toBe(true);
  });
});
