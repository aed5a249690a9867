/**
 * The identifier formats the server checks (backend/apps/tenancy/operator.py), so the form can say so
 * before saving: spaces, dots and hyphens are ignored and letters upper-cased, as the server does.
 */
const EORI_RE = /^[A-Z]{2}[A-Z0-9]{1,15}$/;
const VAT_RE = /^[A-Z]{2}[A-Z0-9+*]{2,13}$/;
const PHONE_RE = /^\+?[0-9(][0-9 ()./-]{3,28}[0-9]$/;

export function normalizeIdentifier(value: string | null | undefined): string {
  return (value ?? '').replace(/[\s.-]/g, '').toUpperCase();
}

/** Empty counts as valid: whether a value is needed is a separate rule. */
export function isEori(value: string | null | undefined): boolean {
  const normalized = normalizeIdentifier(value);
  return normalized === '' || EORI_RE.test(normalized);
}

export function isVat(value: string | null | undefined): boolean {
  const normalized = normalizeIdentifier(value);
  return normalized === '' || VAT_RE.test(normalized);
}

export function isPhone(value: string | null | undefined): boolean {
  const normalized = (value ?? '').trim().replace(/\s+/g, ' ');
  return normalized === '' || PHONE_RE.test(normalized);
}
