/**
 * Every route in Chinese, as each kind of user (the routes of routes.ts): no English text of the
 * product's own may be left on a page whose user chose 中文.
 *
 * What counts as the product's English: the phrases of the English message catalogues (src/i18n/en/*.json)
 * and of the server's (backend/locale, the msgids), split at their placeholders, that are not also in
 * the Chinese catalogues. A phrase of two words or more, or one capitalised word of five letters or more,
 * found in the page's visible text, a placeholder, an aria-label or a title, fails the walk with its
 * route and the words around it.
 *
 * Data is not the product's text: a phrase inside a longer string of the API's answers ("EuroTrade Goods
 * BV", "Evergreen Paper Products Kunshan") is a record's, not a message. A whole API string that is
 * itself one of the server's messages ("Country risk levels") is the server failing to translate, and
 * counts. Records named exactly like a message go in ALLOWED with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { signIn, type DemoUser } from './helpers';
import { pageText, recordData } from './language';
import { INTERNAL_ROUTES, internalIds, openInApp, resolve, settled, SIGNED_OUT_ROUTES, submittedDelivery, SUPPLIER_ROUTES, supplierIds, TENANT, token, traceIds, WAREHOUSE_ROUTES, type Ids } from './routes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Phrases that may stay English in the Chinese interface, each with its reason: names of standards,
 * systems and formats that Chinese users read in Latin letters too, and demo records named like a message.
 */
const ALLOWED = new Set<string>([
  // Names of systems, standards and file formats, written the same way in Chinese.
  'TRACES NT',
  'Factur-X',
  'Peppol BIS',
  'Visma eAccounting',
  'Visma',
  'Chromium',
  'Zebra',
  'PostgreSQL',
  // Demo records named exactly like a message: the demo company's departments and roles.
  'Sales',
  'Supplier',
  'Warehouse',
]);

function flatten(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) flatten(item, into);
}

function catalogue(language: 'en' | 'zh'): string[] {
  const dir = path.join(ROOT, 'src', 'i18n', language);
  const texts: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    flatten(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), texts);
  }
  return texts;
}

/** The server's English messages: the msgids of its Chinese catalogue (single-line ones suffice). */
function serverMessages(): string[] {
  const po = readFileSync(path.join(ROOT, '..', 'backend', 'locale', 'zh_Hans', 'LC_MESSAGES', 'django.po'), 'utf8');
  return [...po.matchAll(/^msgid "(.+)"$/gm)].map((match) => (match[1] ?? '').replace(/\\"/g, '"'));
}

/** The literal parts of a message: placeholders ({{x}}, {x}, %(x)s, %s), markup and ICU plural arms cut out. */
function fragments(message: string): string[] {
  return message
    .split(/\{\{[^}]*\}\}|\{[^}]*\}|%\([^)]*\)[sd]|%[sd]|<[^>]*>|\n/)
    .map((part) => part.replace(/\s+/g, ' ').trim().replace(/^[^A-Za-z]+|[^A-Za-z.]+$/g, '').replace(/\.$/, ''))
    .filter(Boolean);
}

function isPhrase(text: string): boolean {
  const words = text.match(/[A-Za-z][A-Za-z'-]*/g) ?? [];
  if (words.length >= 2) return words.some((word) => word.length >= 3) && /^[\x20-\x7e]+$/.test(text);
  return words.length === 1 && text === words[0] && /^[A-Z][a-z]{4,}$/.test(text);
}

function englishPhrases(): string[] {
  const chinese = new Set(catalogue('zh').flatMap(fragments));
  const phrases = new Set<string>();
  for (const message of [...catalogue('en'), ...serverMessages()]) {
    for (const part of fragments(message)) {
      if (isPhrase(part) && !chinese.has(part) && !ALLOWED.has(part)) phrases.add(part);
    }
  }
  // Longest first, so a long phrase is reported rather than the shorter one inside it.
  return [...phrases].sort((a, b) => b.length - a.length);
}

const PHRASES = englishPhrases();
/** Every message of both catalogues as a whole (trimmed), to tell a message from a record. */
const MESSAGES = new Set([...catalogue('en'), ...serverMessages()].map((message) => message.trim()));

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const MATCHERS = PHRASES.map((phrase) => ({ phrase, pattern: new RegExp(`(?<![A-Za-z])${escape(phrase)}(?![A-Za-z])`) }));

/** The English phrases in the texts, each with the words around its first occurrence. */
function englishIn(texts: string[], data: Set<string> = new Set()): string[] {
  const records = [...data].filter((value) => !MESSAGES.has(value.trim()));
  const found = new Map<string, string>();
  for (const text of texts) {
    let rest = text;
    for (const { phrase, pattern } of MATCHERS) {
      const match = pattern.exec(rest);
      if (!match) continue;
      if (records.some((value) => value.includes(phrase))) {
        rest = rest.replace(new RegExp(pattern.source, 'g'), ' ');
        continue;
      }
      const around = rest.slice(Math.max(0, match.index - 30), match.index + phrase.length + 30).replace(/\s+/g, ' ');
      if (!found.has(phrase)) found.set(phrase, `"${phrase}" in "…${around}…"`);
      rest = rest.replace(new RegExp(pattern.source, 'g'), ' ');
    }
  }
  return [...found.values()];
}

async function chinesePage(browser: Browser, user: DemoUser | null): Promise<Page> {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
  await context.addInitScript((tenant) => {
    window.localStorage.setItem('app-language', 'zh');
    if (!window.localStorage.getItem('tenant_id')) window.localStorage.setItem('tenant_id', tenant);
  }, TENANT);
  const page = await context.newPage();
  if (user) await signIn(page, user);
  return page;
}

const KINDS: { user: DemoUser | null; title: string; routes: string[]; ids: (request: APIRequestContext) => Promise<Ids> }[] = [
  // a delivery that is not a draft: the edit address of a draft goes on to the wizard (routes.ts)
  { user: 'admin', title: 'internal user (admin)', routes: INTERNAL_ROUTES, ids: async (r) => ({ ...(await internalIds(r)), rawMaterial: await submittedDelivery(r, await token(r, 'admin')) }) },
  { user: 'warehouse', title: 'warehouse user', routes: WAREHOUSE_ROUTES, ids: () => Promise.resolve({}) },
  { user: 'supplier', title: 'supplier', routes: SUPPLIER_ROUTES, ids: async (r) => ({ ...(await supplierIds(r)), rawMaterial: await submittedDelivery(r, await token(r, 'supplier')) }) },
  { user: null, title: 'signed out (sign-in page, public trace page)', routes: SIGNED_OUT_ROUTES, ids: traceIds },
];

test('the catalogues give the walk English phrases to look for', () => {
  expect(PHRASES.length).toBeGreaterThan(500);
  expect(englishIn(['订单 Send by e-mail 已发送'])).toEqual(['"Send by e-mail" in "…订单 Send by e-mail 已发送…"']);
  expect(fragments('{{count}} cartons selected')).toEqual(['cartons selected']);
});

for (const kind of KINDS) {
  test(`every page of the ${kind.title} speaks Chinese`, async ({ browser, request }) => {
    test.setTimeout(kind.routes.length * 30_000);
    const ids = await kind.ids(request);
    const page = await chinesePage(browser, kind.user);
    const data = recordData(page);
    const found: string[] = [];
    // One page load, then every route opened inside the app as a link does (a new page load per route
    // spent most of the walk starting the app again); the public trace page is a document of its own.
    let loaded = false;
    for (const pattern of kind.routes) {
      const route = resolve(pattern, ids);
      if (loaded && !route.startsWith('/eudrtrace/') && !route.startsWith('/auth/')) await openInApp(page, route);
      else await page.goto(route);
      loaded = !route.startsWith('/eudrtrace/');
      await settled(page);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      for (const phrase of englishIn(await pageText(page), data)) found.push(`${pattern}: ${phrase}`);
    }
    await page.context().close();
    expect(found, `English on Chinese pages:\n${found.join('\n')}`).toEqual([]);
  });
}
