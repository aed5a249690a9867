/**
 * Client-side mirrors of the server's raw-material rules (docs/specification.md section 5). Each rule returns the
 * i18n key of its message (namespace eudr, `validation.*`) or null; the English texts are docs/specification.md's.
 */
import { enoughToGenerate } from './weight';

export const PAPER = 'paper';

export type ValidationKey =
  | 'validation.parentVendorRequired'
  | 'validation.deliveryNumberRequired'
  | 'validation.materialTypeRequired'
  | 'validation.validWeightRequired'
  | 'validation.pulpTypeRequiredForPaper'
  | 'validation.atLeastOneMaterial'
  | 'validation.deliveryFileRequiredParse'
  | 'validation.harvestOrder'
  | 'validation.countRequired'
  | 'validation.countPositive'
  | 'validation.batchCodeRequired'
  | 'validation.batchCodeFormat'
  | 'validation.productSearchMin'
  | 'validation.productRequired'
  | 'validation.purchaseOrderLineRequired'
  | 'validation.insufficientWeightMin';

export interface LineInput {
  material_type?: string | null;
  weight_kg?: string | number | null;
  pulp_type?: string | null;
}

function blank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

export function parentVendorRule(value: unknown): ValidationKey | null {
  return blank(value) ? 'validation.parentVendorRequired' : null;
}

export function deliveryNumberRule(value: unknown): ValidationKey | null {
  return blank(value) ? 'validation.deliveryNumberRequired' : null;
}

export function materialTypeRule(value: unknown): ValidationKey | null {
  return blank(value) ? 'validation.materialTypeRequired' : null;
}

/** A weight is valid when it is a number greater than zero. */
export function weightRule(value: unknown): ValidationKey | null {
  if (blank(value)) return 'validation.validWeightRequired';
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  return Number.isFinite(n) && n > 0 ? null : 'validation.validWeightRequired';
}

export function pulpTypeRule(materialType: unknown, pulpType: unknown): ValidationKey | null {
  return materialType === PAPER && blank(pulpType) ? 'validation.pulpTypeRequiredForPaper' : null;
}

export function linesRule(lines: readonly unknown[] | null | undefined): ValidationKey | null {
  return !lines || lines.length === 0 ? 'validation.atLeastOneMaterial' : null;
}

/** Parsing needs a delivery file first. */
export function parseFileRule(file: unknown): ValidationKey | null {
  return file ? null : 'validation.deliveryFileRequiredParse';
}

/** Harvest months as YYYY-MM: the end may not come before the begin. */
export function harvestRule(begin: string | null | undefined, end: string | null | undefined): ValidationKey | null {
  if (!begin || !end) return null;
  return end < begin ? 'validation.harvestOrder' : null;
}

export interface LineErrors {
  material_type?: ValidationKey;
  weight_kg?: ValidationKey;
  pulp_type?: ValidationKey;
}

export function lineErrors(line: LineInput): LineErrors {
  const errors: LineErrors = {};
  const type = materialTypeRule(line.material_type);
  if (type) errors.material_type = type;
  const weight = weightRule(line.weight_kg);
  if (weight) errors.weight_kg = weight;
  const pulp = pulpTypeRule(line.material_type, line.pulp_type);
  if (pulp) errors.pulp_type = pulp;
  return errors;
}

export interface BasicInfoInput {
  parent_vendor?: number | string | null;
  delivery_number?: string | null;
  harvest_begin_month?: string | null;
  harvest_end_month?: string | null;
}

/** Every message of the first step, by field. */
export function basicInfoErrors(values: BasicInfoInput): Partial<Record<keyof BasicInfoInput, ValidationKey>> {
  const errors: Partial<Record<keyof BasicInfoInput, ValidationKey>> = {};
  const pv = parentVendorRule(values.parent_vendor);
  if (pv) errors.parent_vendor = pv;
  const dn = deliveryNumberRule(values.delivery_number);
  if (dn) errors.delivery_number = dn;
  const harvest = harvestRule(values.harvest_begin_month, values.harvest_end_month);
  if (harvest) errors.harvest_end_month = harvest;
  return errors;
}

/** Every message of the second step: the list rule, then each line's. */
export function materialErrors(lines: readonly LineInput[] | null | undefined): { list: ValidationKey | null; lines: LineErrors[] } {
  return { list: linesRule(lines), lines: (lines ?? []).map(lineErrors) };
}

/* ---------- generate-cartons dialog (docs/specification.md sections 5 and 9) ---------- */

export const PRODUCT_SEARCH_MIN = 2;

export function productSearchRule(term: string): ValidationKey | null {
  const length = term.trim().length;
  return length > 0 && length < PRODUCT_SEARCH_MIN ? 'validation.productSearchMin' : null;
}

/** Whether a product search should be sent at all. */
export function canSearchProducts(term: string): boolean {
  return term.trim().length >= PRODUCT_SEARCH_MIN;
}

export function countRule(value: unknown): ValidationKey | null {
  if (blank(value)) return 'validation.countRequired';
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? null : 'validation.countPositive';
}

/** Generation is offered only while at least 10 kg remain. */
export function remainingRule(remainingKg: string | number | null | undefined): ValidationKey | null {
  return enoughToGenerate(remainingKg) ? null : 'validation.insufficientWeightMin';
}
