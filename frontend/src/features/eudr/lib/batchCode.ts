/**
 * Production batch codes: the production date as YYYYMMDD followed by one capital letter, e.g.
 * 20261121A (the second batch of that day is B, and so on).
 */
export const BATCH_CODE_PATTERN = /^(\d{4})(\d{2})(\d{2})([A-Z])$/;

/** True when the code has the format and its date exists in the calendar. */
export function isValidBatchCode(code: string): boolean {
  const match = BATCH_CODE_PATTERN.exec(code.trim());
  if (!match) return false;
  const [, y, m, d] = match;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function datePart(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}${m}${d}`;
}

/**
 * Today's code: the first letter not yet used by a batch of today among `existing` (A when none).
 * After Z there is no letter left, and Z is returned so the server answers for the clash.
 */
export function suggestBatchCode(existing: readonly string[] = [], today: Date = new Date()): string {
  const prefix = datePart(today);
  const used = new Set(existing.filter((code) => code.startsWith(prefix)).map((code) => code.slice(prefix.length)));
  for (let letter = 65; letter <= 90; letter += 1) {
    const candidate = String.fromCharCode(letter);
    if (!used.has(candidate)) return `${prefix}${candidate}`;
  }
  return `${prefix}Z`;
}
