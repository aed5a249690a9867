/**
 * The sales order form's live amounts, exactly as the server computes them
 * (apps/salesorders/services/_common.py `line_amounts`): net = quantity x unit price x (100 - discount) / 100
 * and VAT = net x rate / 100, each rounded half up to cents; the totals are the sums of the rounded line
 * amounts. Decimal strings in and out, fixed-point integers in between (no float: 0.1 + 0.2 is 0.30).
 */
import { formatDecimal, parseDecimal, roundHalfUp } from '@/shared/utils/decimal';

type DecimalInput = string | number | null | undefined;

/** The server's decimals of a line's inputs (SalesOrderLine: quantity 3, unit price 4, percentages 2). */
const QTY = 3;
const PRICE = 4;
const PERCENT = 2;
const HUNDRED_PERCENT = 100n * 10n ** BigInt(PERCENT);

const units = (value: DecimalInput, places: number) => parseDecimal(value, places, 'truncate') ?? 0n;

export interface LineAmounts {
  /** Net amount, 2 decimals ("26.97"). */
  net: string;
  /** VAT amount, 2 decimals. */
  vat: string;
}

/** Net and VAT of one line (an empty or unreadable input counts 0). */
export function lineAmounts(quantity: DecimalInput, unitPrice: DecimalInput, discount: DecimalInput, vatRate: DecimalInput): LineAmounts {
  // scale QTY + PRICE + PERCENT, and /100 adds 2 more
  const gross = units(quantity, QTY) * units(unitPrice, PRICE) * (HUNDRED_PERCENT - units(discount, PERCENT));
  const net = roundHalfUp(gross, QTY + PRICE + PERCENT + 2, 2);
  const vat = roundHalfUp(net * units(vatRate, PERCENT), 2 + PERCENT + 2, 2);
  return { net: formatDecimal(net, 2), vat: formatDecimal(vat, 2) };
}

export interface OrderTotals {
  net: string;
  vat: string;
  gross: string;
}

/** The order's totals: the sums of the lines' rounded net and VAT amounts, and their sum. */
export function orderTotals(
  lines: readonly { quantity?: DecimalInput; unit_price?: DecimalInput; discount_percent?: DecimalInput; vat_rate?: DecimalInput }[],
): OrderTotals {
  let net = 0n;
  let vat = 0n;
  for (const line of lines) {
    const amounts = lineAmounts(line.quantity, line.unit_price, line.discount_percent, line.vat_rate);
    net += units(amounts.net, 2);
    vat += units(amounts.vat, 2);
  }
  return { net: formatDecimal(net, 2), vat: formatDecimal(vat, 2), gross: formatDecimal(net + vat, 2) };
}
