/**
 * The shape of the texts: src/i18n/<lang>/<namespace>.json. The app loads one language's bundle
 * (bundles/<lang>.ts, its own chunk) at start-up; `allResources()` gathers both languages eagerly for
 * the unit tests, which need no loading step.
 */
import type { Language } from './language';

export type Messages = { [key: string]: string | Messages };
/** namespace -> messages, for one language. */
export type Bundle = Record<string, Messages>;

/** Namespace name -> messages, from the modules of one language's folder. */
export function namespacesOf(modules: Record<string, unknown>): Bundle {
  const bundle: Bundle = {};
  for (const [path, messages] of Object.entries(modules)) {
    const match = /\/([\w-]+)\.json$/.exec(path);
    if (match?.[1]) bundle[match[1]] = messages as Messages;
  }
  return bundle;
}

/** Both languages, loaded eagerly (tests and tooling only: the app loads one bundle lazily). */
export function allResources(): Record<Language, Bundle> {
  return {
    en: namespacesOf(import.meta.glob('./en/*.json', { eager: true, import: 'default' })),
    zh: namespacesOf(import.meta.glob('./zh/*.json', { eager: true, import: 'default' })),
  };
}
