/**
 * Exact decimal arithmetic for the live totals of the order form, mirroring the server
 * (apps/purchaseorders/services.py): line amount = order_qty x unit_cost rounded half up to cents;
 * the order total is the sum of the rounded line amounts. Values are decimal strings; no floats.
 * The arithmetic itself is the shared one (src/shared/utils/decimal.ts), as the sales order form's.
 */

import { compareDecimals, formatDecimal, parseDecimal, roundHalfUp, sumDecimals } from '@/shared/utils/decimal';

/** The value times 10^scale as a bigint (extra digits are cut), or null if it is not a decimal. */
export function toScaled(value: string | number | null | undefined, scale: number): bigint | null {
  return parseDecimal(value, scale, 'truncate');
}

/** A scaled bigint back to a decimal string with exactly `scale` decimals. */
export const fromScaled = (value: bigint, scale: number): string => formatDecimal(value, scale);

/** order_qty x unit_cost, rounded half up to cents, as a string with 2 decimals ("0.00" if incomplete). */
export function lineAmount(qty: string | number | null | undefined, unitCost: string | number | null | undefined): string {
  const q = toScaled(qty, 3);
  const c = toScaled(unitCost, 4);
  if (q === null || c === null) return '0.00';
  return fromScaled(roundHalfUp(q * c, 7, 2), 2);
}

/** Sum of line amounts (each already rounded to cents). */
export const sumAmounts = (amounts: readonly string[]): string => sumDecimals(amounts, 2);

/** a - b for quantities (3 decimals). */
export function subtractQty(a: string, b: string): string {
  return fromScaled((toScaled(a, 3) ?? 0n) - (toScaled(b, 3) ?? 0n), 3);
}

export const compareQty = (a: string, b: string): number => compareDecimals(a, b, 3);
