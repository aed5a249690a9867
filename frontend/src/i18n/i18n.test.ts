import { describe, expect, it } from 'vitest';
import { allResources } from './resources';

const resources = allResources();
import { browserLanguage, resolveInitialLanguage } from './language';
import { FIRST_PAGE_NAMESPACES } from './namespaces';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

// i18next plural forms differ by language (en has _one and _other, zh only _other): compare base keys.
const PLURAL = /_(zero|one|two|few|many|other)$/;
function baseKeys(tree: Tree): string[] {
  return [...new Set(keys(tree).map((key) => key.replace(PLURAL, '')))].sort();
}

describe('locale files', () => {
  it('zh and en have the same namespaces', () => {
    expect(Object.keys(resources.zh).sort()).toEqual(Object.keys(resources.en).sort());
  });

  it.each(Object.keys(resources.en))('namespace %s has the same keys in zh and en, none empty', (ns) => {
    const en = baseKeys(resources.en[ns]);
    const zh = baseKeys(resources.zh[ns]);
    expect(zh).toEqual(en);
    for (const lang of ['en', 'zh'] as const) {
      const tree = resources[lang][ns];
      for (const key of keys(tree)) {
        const value = key.split('.').reduce<Tree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
        expect(value, `${lang}/${ns}.json ${key}`).not.toBe('');
      }
    }
  });

  // A count names a noun that needs the plural rules of the language ("1 cartons", "1 plots pass"):
  // every English message with {{count}} has _one and _other forms, unless the count stands apart.
  const COUNT_APART = new Set([
    'common:table.total',
    'dueDiligence:assessment.history',
    'eudr:detail.lines',
    'eudr:labels.deleteSelectedCount',
    'eudr:cap.item',
    'eudr:filing.history',
    'logistics:cartons.title',
    'profile:password.rules',
    'users:password.rules',
    'warehouse:receive.pending',
  ]);
  it.each(Object.keys(resources.en))('namespace %s: every counted English message has singular and plural forms', (ns) => {
    const tree = resources.en[ns];
    const all = new Set(keys(tree));
    for (const key of all) {
      const value = key.split('.').reduce<Tree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
      if (typeof value !== 'string' || !value.includes('{{count}}') || COUNT_APART.has(`${ns}:${key}`)) continue;
      const base = key.replace(PLURAL, '');
      expect(all.has(`${base}_one`) && all.has(`${base}_other`), `en/${ns}.json ${key}`).toBe(true);
      expect(keys(resources.zh[ns]), `zh/${ns}.json ${base}_other`).toContain(`${base}_other`);
    }
  });

  it('the tenant selector is titled in the interface language: 选择租户 in Chinese (docs/specification.md, docs/decisions.md)', () => {
    expect((resources.en.tenant).selectTitle).toBe('Select company');
    expect((resources.zh.tenant).selectTitle).toBe('选择租户');
  });
});

describe('language', () => {
  it('defaults from the browser: zh if it starts with zh, else en', () => {
    expect(browserLanguage('zh-CN')).toBe('zh');
    expect(browserLanguage('zh')).toBe('zh');
    expect(browserLanguage('ZH-tw')).toBe('zh');
    expect(browserLanguage('en-US')).toBe('en');
    expect(browserLanguage('de')).toBe('en');
    expect(browserLanguage(undefined)).toBe('en');
  });

  it('keeps a stored choice and stores the browser default', () => {
    window.localStorage.setItem('app-language', 'zh');
    expect(resolveInitialLanguage(window.localStorage, { language: 'en-US' } as Navigator)).toBe('zh');
    window.localStorage.removeItem('app-language');
    expect(resolveInitialLanguage(window.localStorage, { language: 'zh-CN' } as Navigator)).toBe('zh');
    expect(window.localStorage.getItem('app-language')).toBe('zh');
  });
});

describe('texts split for the first page', () => {
  it.each(['en', 'zh'] as const)('%s: the first-page bundle holds exactly the first-page namespaces, the rest bundle every other', async (lang) => {
    const [first, rest] = await Promise.all(
      lang === 'en' ? [import('./bundles/en'), import('./bundles/en-rest')] : [import('./bundles/zh'), import('./bundles/zh-rest')],
    );
    expect(Object.keys(first.default).sort()).toEqual([...FIRST_PAGE_NAMESPACES].sort());
    expect(Object.keys(rest.default).filter((ns) => Object.keys(first.default).includes(ns))).toEqual([]);
    expect([...Object.keys(first.default), ...Object.keys(rest.default)].sort()).toEqual(Object.keys(resources[lang]).sort());
    for (const ns of Object.keys(rest.default)) expect(rest.default[ns]).toEqual(resources[lang][ns]);
  });
});
