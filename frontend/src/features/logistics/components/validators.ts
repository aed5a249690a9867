/** Client-side checks mirroring apps/logistics/validators.py (the server has the last word). */

const CONTAINER_RE = /^[A-Z]{3}[UJZR]\d{7}$/;
const UNLOCODE_RE = /^[A-Z]{2}[A-Z2-9]{3}$/;

const LETTER_VALUES: Record<string, number> = (() => {
  const values: Record<string, number> = {};
  let value = 10;
  for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    if (value % 11 === 0) value += 1;
    values[letter] = value;
    value += 1;
  }
  return values;
})();

export function normalizeContainer(value: string): string {
  return value.replace(/[\s\-/]/g, '').toUpperCase();
}

export function containerCheckDigit(firstTen: string): number {
  let total = 0;
  [...firstTen].forEach((char, position) => {
    const n = /[A-Z]/.test(char) ? (LETTER_VALUES[char] ?? 0) : Number(char);
    total += n * 2 ** position;
  });
  return (total % 11) % 10;
}

export type ContainerProblem = 'format' | 'checkDigit' | null;

export function containerProblem(value: string): ContainerProblem {
  const number = normalizeContainer(value);
  if (!CONTAINER_RE.test(number)) return 'format';
  return containerCheckDigit(number.slice(0, 10)) === Number(number[10]) ? null : 'checkDigit';
}

export function isUnlocode(value: string): boolean {
  return value === '' || UNLOCODE_RE.test(value);
}

export function trackingTemplateProblem(value: string): 'scheme' | 'placeholder' | null {
  if (!value) return null;
  if (!/^https?:\/\//.test(value)) return 'scheme';
  if (!value.includes('{container}') && !value.includes('{tracking}')) return 'placeholder';
  return null;
}
