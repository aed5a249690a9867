/**
 * Decimal values of the API (weights, DecimalField strings such as "0.674") as exact fixed-point
 * integers: a value with `places` decimals is held as a bigint of its smallest units (3 places: grams of
 * a kg). Sums, products with a count, comparisons and floor divisions are then exact, where binary
 * floats (0.1 + 0.2) are not (docs/style.md: weights are Decimal).
 */

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;

/**
 * The value in units of 10^-places; null when it is not a decimal. Extra decimals are rounded half away
 * from zero, or cut with `rounding: 'truncate'`.
 */
export function parseDecimal(
  value: string | number | null | undefined,
  places = 3,
  rounding: 'half-up' | 'truncate' = 'half-up',
): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // toFixed gives the correctly rounded decimal text of the float at this many places.
    return parseDecimal(value.toFixed(places), places, rounding);
  }
  const match = DECIMAL.exec(value.trim());
  if (!match || (!match[2] && !match[3])) return null;
  const [, sign, whole = '', fraction = ''] = match;
  const kept = fraction.slice(0, places).padEnd(places, '0');
  let units = BigInt((whole || '0') + kept);
  if (rounding === 'half-up' && fraction.length > places && Number(fraction[places]) >= 5) units += 1n;
  return sign === '-' ? -units : units;
}

/** The decimal text of `units` (units of 10^-places), e.g. 674n -> "0.674". */
export function formatDecimal(units: bigint, places = 3): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const text = places > 0 ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return negative ? `-${text}` : text;
}

/** The value as a number for display and proportions (exact to `places` decimals); 0 when not a decimal. */
export function decimalToNumber(units: bigint | null, places = 3): number {
  return units === null ? 0 : Number(formatDecimal(units, places));
}

/**
 * `units` (units of 10^-fromPlaces) rounded to `toPlaces` decimals half away from zero, as Python's
 * `Decimal.quantize(..., ROUND_HALF_UP)` does on the server: money is rounded so, never through a float.
 */
export function roundHalfUp(units: bigint, fromPlaces: number, toPlaces: number): bigint {
  if (fromPlaces <= toPlaces) return units * 10n ** BigInt(toPlaces - fromPlaces);
  const divisor = 10n ** BigInt(fromPlaces - toPlaces);
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const rounded = (magnitude + divisor / 2n) / divisor;
  return negative ? -rounded : rounded;
}

/** The exact sum of decimal strings at `places` decimals ("0.10" + "0.20" = "0.30"); what is not a decimal counts 0. */
export function sumDecimals(values: readonly (string | null | undefined)[], places = 2): string {
  let total = 0n;
  for (const value of values) total += parseDecimal(value, places, 'truncate') ?? 0n;
  return formatDecimal(total, places);
}

/** -1, 0 or 1 as a < b, a = b, a > b at `places` decimals; what is not a decimal counts 0. */
export function compareDecimals(a: string | number | null | undefined, b: string | number | null | undefined, places = 3): number {
  const x = parseDecimal(a, places, 'truncate') ?? 0n;
  const y = parseDecimal(b, places, 'truncate') ?? 0n;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** The shortest text of the same decimal value ("21.00" -> "21", "100.500" -> "100.5"); other text as given. */
export function canonicalDecimal(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value).trim();
  const match = DECIMAL.exec(text);
  if (!match || (!match[2] && !match[3])) return text;
  const [, sign, whole = '', fraction = ''] = match;
  const digits = (whole.replace(/^0+/, '') || '0') + (fraction.replace(/0+$/, '') ? `.${fraction.replace(/0+$/, '')}` : '');
  return sign === '-' && digits !== '0' ? `-${digits}` : digits;
}
