/**
 * i18next set-up. Every namespace is one JSON file per language: src/i18n/<lang>/<namespace>.json,
 * gathered per language at build time, so a feature adds its own namespace by adding two files (en and
 * zh) without touching this module. Only the user's language is loaded, and of it only the namespaces a
 * first page needs (bundles/<lang>.ts, namespaces.ts) before the first page; the features' texts
 * (bundles/<lang>-rest.ts) follow with the first feature page. The other language is loaded when the
 * user switches to it.
 */
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, LANGUAGES, resolveInitialLanguage, storeLanguage, type Language } from './language';
import { FIRST_PAGE_NAMESPACES } from './namespaces';
import type { Bundle } from './resources';

type BundleModule = Promise<{ default: Bundle }>;

/** The namespaces of a first page, per language (../namespaces.ts). */
const FIRST_PAGE: Record<Language, () => BundleModule> = {
  en: () => import('./bundles/en'),
  zh: () => import('./bundles/zh'),
};
/** Every other namespace, per language: the features' texts. */
const REST: Record<Language, () => BundleModule> = {
  en: () => import('./bundles/en-rest'),
  zh: () => import('./bundles/zh-rest'),
};

const loaded: Partial<Record<Language, Bundle>> = {};
const restLoading: Partial<Record<Language, Promise<Bundle>>> = {};
/** True once the app has needed the features' texts: a language switch then loads them too. */
let restWanted = false;
/** False when initI18n was given every namespace (the unit tests): nothing is loaded later. */
let lazyTexts = false;

function addBundle(language: Language, bundle: Bundle): void {
  if (!i18n.isInitialized) return;
  for (const [namespace, messages] of Object.entries(bundle)) {
    i18n.addResourceBundle(language, namespace, messages, true, true);
  }
}

/**
 * Loads one language's first-page texts (once) and hands them to i18next if it is running; once the
 * features' texts were needed, loads that language's too, so a switch never shows raw keys.
 */
export async function loadLanguage(language: Language): Promise<Bundle> {
  let bundle = loaded[language];
  if (!bundle) {
    bundle = (await FIRST_PAGE[language]()).default;
    loaded[language] = bundle;
    addBundle(language, bundle);
  }
  if (restWanted) await loadRestTexts(language);
  return bundle;
}

/**
 * The features' texts of `language` (every namespace but the first page's), loaded once. Page routes
 * other than the login and home pages await it before they render (src/app/router.tsx).
 */
export function loadRestTexts(language: Language = currentLanguage()): Promise<Bundle> {
  if (!lazyTexts) return Promise.resolve({});
  restWanted = true;
  let loading = restLoading[language];
  if (!loading) {
    loading = REST[language]().then(
      ({ default: bundle }) => {
        addBundle(language, bundle);
        return bundle;
      },
      (error: unknown) => {
        delete restLoading[language];
        throw error;
      },
    );
    restLoading[language] = loading;
  }
  return loading;
}

const FIRST_PAGE_SET: ReadonlySet<string> = new Set(FIRST_PAGE_NAMESPACES);

/**
 * i18next's loader for a namespace that is not there yet (a component outside the page routes asking for
 * a feature's namespace): react-i18next suspends the component until it is loaded, so no raw keys show.
 */
const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language: string, namespace: string, callback: ReadCallback) {
    if (!isLanguage(language)) {
      callback(null, {});
      return;
    }
    const loading = FIRST_PAGE_SET.has(namespace) ? loadLanguage(language) : loadRestTexts(language);
    loading.then(
      (bundle) => callback(null, bundle[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

let initialised = false;

/**
 * Step one of start-up (docs/specification.md section 4): the language. `bundles` holds the texts already loaded: the
 * app passes the first page's namespaces of one language (`loadLanguage`) with `lazy`, and the rest is
 * loaded later; the tests pass every namespace of both languages (`allResources()`).
 */
export function initI18n(
  language: Language,
  bundles: Partial<Record<Language, Bundle>>,
  { lazy = false }: { lazy?: boolean } = {},
): typeof i18n {
  if (initialised) return i18n;
  initialised = true;
  lazyTexts = lazy;
  Object.assign(loaded, bundles);
  const resources = Object.fromEntries(Object.entries(bundles));
  if (lazy) i18n.use(lazyBackend);
  void i18n.use(initReactI18next).init({
    resources,
    partialBundledLanguages: lazy,
    lng: language,
    // With lazily loaded texts only the user's language is there: falling back to English would
    // download the English texts too (and there is no missing key: i18n.test.ts).
    fallbackLng: lazy ? false : 'en',
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
