/**
 * The weight balance of a delivery (docs/specification.md section 4) turned into what the page draws: figures and
 * the proportions of one bar (used, remaining, loss) over the original weight, plus the carton cap.
 * The server computes the balance; this only lays it out, so the page and the server never disagree.
 * Decisions (enough weight left, how many cartons fit) are taken on exact decimals, never on floats.
 */
import { decimalToNumber, parseDecimal } from '@/shared/utils/decimal';

/** docs/specification.md section 9: cartons can be generated only while at least this much weight remains. */
export const MIN_GENERATE_KG = 10;

export interface WeightFigures {
  original_kg: string | number;
  loss_kg: string | number;
  available_kg: string | number;
  used_kg: string | number;
  remaining_kg: string | number;
}

export interface WeightBar {
  original: number;
  loss: number;
  available: number;
  used: number;
  remaining: number;
  /** Shares of the original weight in percent (0..100, summing to at most 100). */
  usedPercent: number;
  remainingPercent: number;
  lossPercent: number;
  /** Used share of the available weight, for a progress bar (0..100). */
  usedOfAvailablePercent: number;
  /** 'empty' when nothing remains, 'low' under the generation minimum, else 'ok'. */
  level: 'ok' | 'low' | 'empty';
}

/** A weight from the API (decimal string) or a form (number) in grams, exact; anything else is 0. */
export function toGrams(value: string | number | null | undefined): bigint {
  return parseDecimal(value, 3) ?? 0n;
}

/** A decimal string (or number) from the API as a number for display, exact to the gram; anything else is 0. */
export function toKg(value: string | number | null | undefined): number {
  return decimalToNumber(toGrams(value));
}

const MIN_GENERATE_GRAMS = BigInt(MIN_GENERATE_KG * 1000);

/** Whether at least the generation minimum remains (compared exactly). */
export function enoughToGenerate(remainingKg: string | number | null | undefined): boolean {
  return toGrams(remainingKg) >= MIN_GENERATE_GRAMS;
}

function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  const share = (Math.max(part, 0) / whole) * 100;
  return Math.min(100, Math.round(share * 10) / 10);
}

export function weightBar(weight: WeightFigures): WeightBar {
  const original = toKg(weight.original_kg);
  const loss = toKg(weight.loss_kg);
  const available = toKg(weight.available_kg);
  const used = toKg(weight.used_kg);
  const remainingGrams = toGrams(weight.remaining_kg);
  const remaining = decimalToNumber(remainingGrams);
  const usedPercent = percent(used, original);
  const lossPercent = Math.min(percent(loss, original), 100 - usedPercent);
  const remainingPercent = Math.max(0, Math.min(percent(remaining, original), 100 - usedPercent - lossPercent));
  return {
    original,
    loss,
    available,
    used,
    remaining,
    usedPercent,
    remainingPercent,
    lossPercent,
    usedOfAvailablePercent: percent(used, available),
    level: remainingGrams <= 0n ? 'empty' : remainingGrams < MIN_GENERATE_GRAMS ? 'low' : 'ok',
  };
}

export interface CartonCap {
  issued: number;
  allowed: number;
  approvedOverCap: number;
  /** allowed + approved over cap; null when the policy sets no cap. */
  limit: number | null;
  /** Cartons that may still be issued; null without a cap. */
  left: number | null;
  usedPercent: number;
}

export function cartonCap(input: {
  issued_cartons: number | null | undefined;
  allowed_carton_cap: number | null | undefined;
  approved_over_cap: number | null | undefined;
}): CartonCap {
  const issued = input.issued_cartons ?? 0;
  const approvedOverCap = input.approved_over_cap ?? 0;
  const hasCap = input.allowed_carton_cap !== null && input.allowed_carton_cap !== undefined;
  const allowed = input.allowed_carton_cap ?? 0;
  const limit = hasCap ? allowed + approvedOverCap : null;
  return {
    issued,
    allowed,
    approvedOverCap,
    limit,
    left: limit === null ? null : Math.max(0, limit - issued),
    usedPercent: limit === null ? 0 : limit <= 0 ? (issued > 0 ? 100 : 0) : Math.min(100, Math.round((issued / limit) * 1000) / 10),
  };
}

/**
 * What a generate request would consume: count x net weight per carton, and whether it fits in the
 * remaining weight, in exact grams (as the server's Decimal arithmetic). The server decides; this is
 * the preview shown before submitting.
 */
export function consumption(
  count: number | null | undefined,
  perCartonKg: string | number,
  remainingKg: string | number,
) {
  const cartons = BigInt(count && count > 0 ? Math.floor(count) : 0);
  const perCarton = toGrams(perCartonKg);
  const remaining = toGrams(remainingKg);
  const total = cartons * perCarton;
  return {
    totalKg: decimalToNumber(total),
    remainingAfterKg: decimalToNumber(remaining - total),
    fits: total <= remaining,
    maxCartons: perCarton > 0n && remaining > 0n ? Number(remaining / perCarton) : 0,
  };
}

/** Weight in kg for display: up to 3 decimals, grouped, in the user's language. */
export function formatKg(value: string | number | null | undefined, language: string): string {
  return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en', { maximumFractionDigits: 3 }).format(toKg(value));
}
