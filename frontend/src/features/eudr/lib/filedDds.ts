/** The server's rules for the filed statement's numbers (RecordDdsSerializer): spaces are dropped, the
 * reference number is upper-cased. */
export const REFERENCE_MAX = 14;
export const VERIFICATION_MIN = 5;
export const VERIFICATION_MAX = 35;

export const compact = (value: string | undefined) => (value ?? '').replace(/\s+/g, '');

/** A statement's reference number (year, member state, 10 letters or digits) or a simplified declaration's
 * identifier (S, year, member state, 9 letters or digits), as the EU information system writes them
 * (backend apps/eudr/references.py). */
export const referenceValid = (value: string | undefined) =>
  /^(?:[0-9]{2}[A-Z]{2}[A-Z0-9]{10}|S[0-9]{2}[A-Z]{2}[A-Z0-9]{9})$/.test(compact(value).toUpperCase());

export const verificationValid = (value: string | undefined) => /^[A-Za-z0-9]{5,35}$/.test(compact(value));
