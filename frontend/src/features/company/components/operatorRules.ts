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

/** IBAN (ISO 13616): country, 2 check digits, up to 30 letters and digits; the whole number is 1 modulo 97
 * (ISO 7064 MOD 97-10). The server also checks each country's length and layout (python-stdnum). */
const IBAN_RE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
/** BIC (ISO 9362): bank (4 letters), country (2 letters), place (2), optional branch (3). */
const BIC_RE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export function compactCode(value: string | null | undefined): string {
  return (value ?? '').replace(/[\s-]/g, '').toUpperCase();
}

export function isIban(value: string | null | undefined): boolean {
  const iban = compactCode(value);
  if (iban === '') return true;
  if (!IBAN_RE.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

export function isBic(value: string | null | undefined): boolean {
  const bic = compactCode(value);
  return bic === '' || BIC_RE.test(bic);
}
