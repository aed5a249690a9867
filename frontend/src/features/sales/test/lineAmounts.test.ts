import { describe, expect, it } from 'vitest';
import { lineAmounts } from '../api/sales';

describe('lineAmounts', () => {
  it('rounds net and VAT half up to cents as the server does', () => {
    expect(lineAmounts('3', '9.99', '10', '21')).toEqual({ net: 26.97, vat: 5.66 });
    expect(lineAmounts('3', '2.50', '0', '21')).toEqual({ net: 7.5, vat: 1.58 });
  });

  it('treats empty input as zero', () => {
    expect(lineAmounts('', '', '', '')).toEqual({ net: 0, vat: 0 });
  });
});
