import { createHmac } from 'node:crypto';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'demo1234';

/** The signing key of the e2e server (scripts/e2e-server.sh sets the same default). */
export const E2E_SECRET_KEY = process.env.E2E_SECRET_KEY ?? 'e2e-only-signing-key-7d1c4f9a2b6e8035c1d7f4a9b2e6c803';

/** A copy of a JWT with claims changed and signed again with the e2e server's key (HS256), e.g. a
 * genuinely expired access token. */
export function resignJwt(token: string, claims: Record<string, unknown>): string {
  const [header = '', payload = ''] = token.split('.');
  const body = { ...(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>), ...claims };
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  const signature = createHmac('sha256', E2E_SECRET_KEY).update(`${header}.${encoded}`).digest('base64url');
  return `${header}.${encoded}.${signature}`;
}

export type DemoUser = 'admin' | 'sales' | 'warehouse' | 'supplier' | 'supplier2';

/** Signs in through the real login page and waits for the app to leave it. */
export async function signIn(page: Page, username: DemoUser, options: { from?: string } = {}): Promise<void> {
  await page.goto(options.from ?? '/auth/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await page.locator('input#username').fill(username);
  await page.locator('input#password').fill(PASSWORD);
  await page.locator('form[data-testid="login-form"] button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'));
}

export async function storage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/** Opens the user menu and clicks one of its entries by visible text. */
export async function userMenu(page: Page, entry: string | RegExp): Promise<void> {
  await page.getByTestId('user-menu').click();
  // A text names the whole entry (after its icon's name), so "Settings" is not "Company settings".
  const name = typeof entry === 'string' ? new RegExp(`(^|\\s)${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : entry;
  await page.getByRole('menuitem', { name }).click();
}

/** Opens the theme drawer from the user menu. */
export async function openThemeSettings(page: Page): Promise<void> {
  await userMenu(page, 'Settings');
  await expect(page.getByTestId('theme-configurator')).toBeVisible();
}

/** Picks a language in a language switcher inside `scope` (a native select), then waits until `done` holds. */
export async function pickLanguage(scope: Locator, label: string, done: () => Promise<void>): Promise<void> {
  await scope.getByTestId('language-switcher').selectOption({ label });
  await done();
}

/**
 * The theme of a page already open, for its next load: the app reads the stored `theme-config` before
 * its first paint; the public trace page follows the colour scheme, which is emulated too.
 */
export async function applyTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((dark) => {
    const stored = JSON.parse(window.localStorage.getItem('theme-config') ?? '{}') as Record<string, unknown>;
    window.localStorage.setItem('theme-config', JSON.stringify({ ...stored, dark }));
  }, theme === 'dark');
}

/** Opens `select`, types `search` and picks the first option of the open dropdown matching `option`. */
export async function pickOption(page: Page, select: Locator, search: string, option: RegExp, timeout?: number): Promise<void> {
  await select.click();
  await page.keyboard.type(search);
  const choice = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: option }).first();
  await expect(choice).toBeVisible(timeout === undefined ? undefined : { timeout });
  await choice.click();
}

/** The input of a field by its test id, whether the id sits on the input or on its wrapper. */
export async function inputOf(page: Page, testId: string): Promise<Locator> {
  const element = page.getByTestId(testId);
  const tag = await element.evaluate((node) => node.tagName);
  return tag === 'INPUT' ? element : element.locator('input').first();
}

/** The statuses of a statement with which its cartons may ship (the server's `placing.AVAILABLE`): any other
 * (a draft, one submitted but not yet available, one rejected or withdrawn) keeps its cartons in. */
const SHIPPING_STATEMENT = new Set(['available', 'amended']);

/**
 * In-stock cartons of tenant 3 (`query` narrows them, e.g. `product=12`), those that surely may ship
 * first: a carton scanned in from a container may ship only once an available statement covers the
 * container's placing, and other journeys leave uncovered cartons on the shelves. `sure` counts the first ones.
 */
export async function shippableCartons<C extends { code: string; inbound_shipment: number | null }>(
  request: APIRequestContext,
  token: string,
  query = '',
): Promise<{ cartons: C[]; sure: number }> {
  const get = async <T>(url: string): Promise<T> => {
    const answer = await request.get(url, { headers: { Authorization: `Bearer ${token}` } });
    expect(answer.ok(), url).toBeTruthy();
    return ((await answer.json()) as { data: T }).data;
  };
  const stock = await get<{ results: C[] }>(`/api/inventory/cartons/?tenant_id=3&status=in_stock&page_size=200${query ? `&${query}` : ''}`);
  const covered = new Map<number, boolean>();
  for (const id of new Set(stock.results.map((c) => c.inbound_shipment).filter((id): id is number => id !== null))) {
    const preview = await get<{ cartons: number; statements: { status: string }[] }>(
      `/api/eudr/placing-statements/preview/?tenant_id=3&shipments=${String(id)}`,
    );
    // none left to declare, and every statement of the container available: a carton declared by a
    // statement still on its way, or rejected or withdrawn, does not ship either
    covered.set(id, preview.cartons === 0 && preview.statements.every((s) => SHIPPING_STATEMENT.has(s.status)));
  }
  // A container's statements do not tell about each of its cartons (a carton may be declared by a statement
  // of another container still on its way): each carton's public trace names the statement that covers it,
  // `own` only for one of ours the system made available, which is what the shipping gate reads.
  const own = new Set<string>();
  const toAsk = stock.results.filter((c) => c.inbound_shipment !== null && covered.get(c.inbound_shipment) === true);
  for (let start = 0; start < toAsk.length; start += 10) {
    await Promise.all(
      toAsk.slice(start, start + 10).map(async (c) => {
        const answer = await request.get(`/api/eudrtrack/${encodeURIComponent(c.code)}/`);
        if (!answer.ok()) return;
        const body = (await answer.json()) as { data: { dds_reference_kind: string } };
        if (body.data.dds_reference_kind === 'own') own.add(c.code);
      }),
    );
  }
  const sure = (c: C) => c.inbound_shipment === null || own.has(c.code);
  const first = stock.results.filter(sure);
  return { cartons: [...first, ...stock.results.filter((c) => !sure(c))], sure: first.length };
}
