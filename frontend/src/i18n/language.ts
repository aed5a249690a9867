/** The UI language (docs/specification.md section 9): zh or en, stored under app-language. */
import { STORAGE_KEYS } from '@/shared/session/storageKeys';

export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return value === 'zh' || value === 'en';
}

/** zh if the browser's language starts with zh, else en. */
export function browserLanguage(navigatorLanguage: string | undefined): Language {
  return (navigatorLanguage ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The stored language, or the browser's (then stored, so every later read agrees). */
export function resolveInitialLanguage(storage: Storage = window.localStorage, nav: Navigator = window.navigator): Language {
  const stored = storage.getItem(STORAGE_KEYS.language);
  if (isLanguage(stored)) return stored;
  const language = browserLanguage(nav.language);
  storage.setItem(STORAGE_KEYS.language, language);
  return language;
}

export function storeLanguage(language: Language, storage: Storage = window.localStorage): void {
  storage.setItem(STORAGE_KEYS.language, language);
}
