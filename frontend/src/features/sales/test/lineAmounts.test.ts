import { describe, expect, it } from 'vitest';
import { lineAmounts, orderTotals } from '../lib/amounts';

describe('lineAmounts', () => {
  it('rounds net and VAT half up to cents as the server does', () => {
    expect(lineAmounts('3', '9.99', '10', '21')).toEqual({ net: '26.97', vat: '5.66' });
    expect(lineAmounts('3', '2.50', '0', '21')).toEqual({ net: '7.50', vat: '1.58' });
    expect(lineAmounts('1', '0.0050', '0', '0')).toEqual({ net: '0.01', vat: '0.00' });
    expect(lineAmounts('3', '0.335', '0', '0')).toEqual({ net: '1.01', vat: '0.00' });
  });

  it('is exact where binary floats are not', () => {
    // 10 x 1.0005 = 10.005: half up to 10.01 (a float product, 10.004999..., gives 10.00)
    expect(lineAmounts('10', '1.0005', '0', '0')).toEqual({ net: '10.01', vat: '0.00' });
    // large quantities times prices: Python's Decimal gives 874999982.50 and 183749996.33
    expect(lineAmounts('99999.999', '9999.9999', '12.5', '21')).toEqual({ net: '874999982.50', vat: '183749996.33' });
    expect(lineAmounts('123456789.123', '1.2345', '0', '0')).toEqual({ net: '152407406.17', vat: '0.00' });
  });

  it('treats empty input as zero', () => {
    expect(lineAmounts('', '', '', '')).toEqual({ net: '0.00', vat: '0.00' });
    expect(lineAmounts(null, undefined, 'x', '')).toEqual({ net: '0.00', vat: '0.00' });
  });
});

describe('orderTotals', () => {
  it('sums the rounded line amounts exactly: 0.1 + 0.2 is 0.30', () => {
    expect(
      orderTotals([
        { quantity: '1', unit_price: '0.1', discount_percent: '0', vat_rate: '0' },
        { quantity: '1', unit_price: '0.2', discount_percent: '0', vat_rate: '0' },
      ]),
    ).toEqual({ net: '0.30', vat: '0.00', gross: '0.30' });
  });

  it('adds VAT per line, as rounded on each line', () => {
    expect(
      orderTotals([
        { quantity: '3', unit_price: '9.99', discount_percent: '10', vat_rate: '21' },
        { quantity: '3', unit_price: '2.50', discount_percent: '0', vat_rate: '21' },
        {},
      ]),
    ).toEqual({ net: '34.47', vat: '7.24', gross: '41.71' });
  });
});
