/**
 * i18next set-up. Every namespace is one JSON file per language: src/i18n/<lang>/<namespace>.json,
 * gathered per language at build time (bundles/<lang>.ts), so a feature adds its own namespace by adding
 * two files (en and zh) without touching this module. Only the user's language is loaded before the
 * first page; the other is loaded when the user switches to it.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, resolveInitialLanguage, storeLanguage, type Language } from './language';
import type { Bundle } from './resources';

const BUNDLES: Record<Language, () => Promise<{ default: Bundle }>> = {
  en: () => import('./bundles/en'),
  zh: () => import('./bundles/zh'),
};

const loaded: Partial<Record<Language, Bundle>> = {};

/** Loads one language's texts (once) and hands them to i18next if it is running. */
export async function loadLanguage(language: Language): Promise<Bundle> {
  const cached = loaded[language];
  if (cached) return cached;
  const bundle = (await BUNDLES[language]()).default;
  loaded[language] = bundle;
  if (i18n.isInitialized) {
    for (const [namespace, messages] of Object.entries(bundle)) {
      i18n.addResourceBundle(language, namespace, messages, true, true);
    }
  }
  return bundle;
}

let initialised = false;

/**
 * Step one of start-up (SPEC.md section 4): the language. `bundles` holds the texts already loaded
 * (`loadLanguage` in the app; every language at once in tests).
 */
export function initI18n(language: Language, bundles: Partial<Record<Language, Bundle>>): typeof i18n {
  if (initialised) return i18n;
  initialised = true;
  Object.assign(loaded, bundles);
  const resources = Object.fromEntries(Object.entries(bundles));
  void i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(bundles[language] ?? bundles.en ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    showSupportNotice: false,
  });
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  return i18n;
}

/** Switches the language at once and remembers it. */
export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  storeLanguage(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  return i18n.language === 'zh' ? 'zh' : 'en';
}

export { i18n, resolveInitialLanguage };
