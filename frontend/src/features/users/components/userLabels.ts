import type { UserType } from '@/api/types';

export const USER_TYPES: readonly UserType[] = ['internal', 'warehouse', 'supplier'];

/** Django's username rule (letters, digits and @/./+/-/_), mirrored for early feedback. */
export const USERNAME_PATTERN = /^[\w.@+-]+$/;
/** The server's PASSWORD_MIN_LENGTH (docs/operations.md, "Passwords"). */
export const MIN_PASSWORD_LENGTH = 12;

/** The client-side part of the server's password rules; the server also refuses common passwords and
 * ones too similar to the user's name. */
export function passwordProblem(password: string): 'minLength' | 'numeric' | null {
  if (password.length < MIN_PASSWORD_LENGTH) return 'minLength';
  if (/^\d+$/.test(password)) return 'numeric';
  return null;
}
