/** The server's rules for a received reference (apps/eudr/references.py): only surrounding blanks are removed
 * and letters upper-cased; an inner space, a hyphen or any other character is refused, never repaired. */
export const normaliseReference = (value: string | undefined) => (value ?? '').trim().toUpperCase();
export const normaliseVerification = (value: string | undefined) => (value ?? '').trim();

/** A statement's reference number (year, member state, 10 capitals or digits) or a simplified declaration's
 * identifier (S, year, member state, 9 capitals or digits): 14 characters either way. */
export const receivedReferenceValid = (value: string | undefined) =>
  /^(?:[0-9]{2}[A-Z]{2}[A-Z0-9]{10}|S[0-9]{2}[A-Z]{2}[A-Z0-9]{9})$/.test(normaliseReference(value));

export const receivedVerificationValid = (value: string | undefined) => /^[A-Za-z0-9]{5,35}$/.test(normaliseVerification(value));
