/** The server's rules for the filed statement's numbers (RecordDdsSerializer): spaces are dropped, the
 * reference number is upper-cased. */
export const REFERENCE_MAX = 14;
export const VERIFICATION_MIN = 5;
export const VERIFICATION_MAX = 35;

export const compact = (value: string | undefined) => (value ?? '').replace(/\s+/g, '');

export const referenceValid = (value: string | undefined) => /^[A-Za-z0-9]{1,14}$/.test(compact(value));

export const verificationValid = (value: string | undefined) => /^[A-Za-z0-9]{5,35}$/.test(compact(value));
