/**
 * Pictures of what people see, compared with committed baselines (toHaveScreenshot): a page that loses its
 * styles, its layout or its theme fails here even when every element is still in the DOM. The sign-in
 * page first (it was once drawn in the browser's serif font with borderless fields, and no test noticed),
 * then the first view of every route (routes.ts) for each kind of user: light at desktop width and dark on
 * a 390 px phone (ROUTE_SHOTS).
 *
 * Each of those views is also the accessibility walk: axe-core (e2e/axe.ts) runs on it after its picture,
 * and no critical or serious violation may remain, so every page is audited in both themes and at both
 * widths; the light view is also read for Chinese text in this English interface (e2e/language.ts:
 * records named in Chinese are data and pass). One page load serves the picture, axe and the language
 * check: a walk of its own for axe visited every route twice more. a11y.spec.ts audits what a first view
 * does not show (selected rows, open dialogs); chinese-walk.spec.ts walks the Chinese interface.
 *
 * They run in `make test` (the Playwright project `pictures`, after the journeys), against a server of their own
 * (playwright.config.ts, ../scripts/e2e-servers.sh): a fresh demo database loaded on a fixed day with fixed
 * carton codes, whose clock starts on that day, and that no journey changes. The browser's clock is fixed
 * to the same day and its time zone is UTC, as the server's. So the same demo data draws the same pages
 * on every run, on any day.
 *
 * Baselines live in e2e/__screenshots__/ and are made in Debian's Chromium with the fonts `make test`
 * installs (scripts/test-deps.sh: fonts-noto-cjk), as CI runs them. A picture that changes fails until its
 * baseline is updated on purpose: `make pictures-update` (or `npx playwright test --project=pictures
 * --update-snapshots=changed`), then look at the new pictures (git diff shows which) before committing them.
 *
 * Masked (drawn as a flat box) only where a page draws something that is not the demo data's: the QR
 * codes of the printer demo's label preview are drawn from the same codes, so nothing needs a mask today;
 * `[data-volatile]` marks what would.
 */
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { analyze, report, type Found } from './axe';
import { applyTheme, signIn, userMenu, type DemoUser } from './helpers';
import { chineseIn, pageText, recordData } from './language';
import type { Theme } from './phone';
import {
  INTERNAL_ROUTES,
  internalIds,
  resolve,
  SIGNED_OUT_ROUTES,
  SUPPLIER_ROUTES,
  supplierIds,
  TENANT,
  traceIds,
  visit,
  visitInApp,
  WAREHOUSE_ROUTES,
  type Ids,
} from './routes';

const THEMES: Theme[] = ['light', 'dark'];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/**
 * Each route twice, each a page load of its own: light at desktop width and dark on a 390 px phone. All
 * four (both themes at both sizes) took 20–30 s a route on a busy 2-core machine, half an hour for the
 * routes; these two cover both themes and both layouts of every page in about half of that. The sign-in
 * page has all four.
 */
const ROUTE_SHOTS: { theme: Theme; size: 'desktop' | 'phone'; viewport: typeof DESKTOP }[] = [
  { theme: 'light', size: 'desktop', viewport: DESKTOP },
  { theme: 'dark', size: 'phone', viewport: PHONE },
];

/** What changes between runs of the same demo data: drawn as flat boxes in the pictures. */
const VOLATILE = ['[data-volatile]'];

/** The browser's "now": the pictures server's fixed day (playwright.config.ts), shortly after its clock starts. */
const NOW = new Date(`${process.env.E2E_PICTURES_DAY ?? '2026-03-02'}T09:05:00Z`);
const SERVER = process.env.E2E_PICTURES_URL;

/** The pictures' server loads its demo data beside the journeys' server: waits until it answers. */
async function serverReady(request: APIRequestContext): Promise<void> {
  await expect
    .poll(async () => (await request.get('/api/schema/', { failOnStatusCode: false }).catch(() => null))?.status(), {
      message: `the pictures server at ${SERVER} answers`,
      timeout: 420_000,
      intervals: [1_000],
    })
    .toBe(200);
}

test.skip(!SERVER, 'the pictures need their own server: E2E_PICTURES_BASE_URL with E2E_BASE_URL (playwright.config.ts)');

test.beforeAll(async ({ request }) => {
  test.setTimeout(450_000);
  await serverReady(request);
});

test.beforeEach(async ({ context }) => {
  await context.clock.setFixedTime(NOW);
});

function masks(page: Page): Locator[] {
  return VOLATILE.map((selector) => page.locator(selector));
}

/** A file name for a route pattern: `/sales/orders/:salesOrder` -> `sales-orders-salesOrder`. */
function pictureName(pattern: string): string {
  const name = pattern.replace(/^\//, '').replace(/[/:]+/g, '-').replace(/-+$/, '');
  return name || 'home';
}

async function newContext(browser: Browser, viewport: typeof DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', viewport, timezoneId: 'UTC' });
  await context.clock.setFixedTime(NOW);
  await context.addInitScript((tenant) => {
    if (!window.localStorage.getItem('tenant_id')) window.localStorage.setItem('tenant_id', tenant);
  }, TENANT);
  return context;
}

/** The first view of the page now open, at desktop width and then on a phone. */
async function pictures(page: Page, folder: string, name: string, theme: Theme): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await expect(page).toHaveScreenshot([folder, `${name}-desktop-${theme}.png`], { mask: masks(page) });
  await page.setViewportSize(PHONE);
  await expect(page).toHaveScreenshot([folder, `${name}-phone-${theme}.png`], { mask: masks(page) });
  await page.setViewportSize(DESKTOP);
}

test.describe('the sign-in page', () => {
  for (const theme of THEMES) {
    test(`is drawn with the theme (${theme})`, async ({ page }) => {
      await page.goto('/auth/login');
      await applyTheme(page, theme);
      await page.reload();
      await expect(page.getByTestId('login-form')).toBeVisible();
      // What the picture shows, said in words too: the theme's font, and fields with a border.
      const font = await page.locator('input#username').evaluate((input) => getComputedStyle(input).fontFamily);
      expect(font).not.toMatch(/^"?Times/);
      expect(font).toContain('sans-serif');
      const field = page.locator('input#username').locator('xpath=..');
      const border = await field.evaluate((box) => getComputedStyle(box).borderTopWidth);
      expect(border).toBe('1px');
      await pictures(page, 'sign-in', 'sign-in', theme);
      const found: Found[] = [];
      await analyze(page, '/auth/login', theme, found);
      expect(found, `critical or serious axe violations:\n${report(found)}`).toEqual([]);
    });
  }

  test('looks the same after signing out', async ({ page }) => {
    await signIn(page, 'admin');
    await userMenu(page, 'Sign Out');
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await expect(page).toHaveScreenshot(['sign-in', 'sign-in-desktop-light.png'], { mask: masks(page) });
  });
});

const KINDS: { user: DemoUser | null; folder: string; routes: string[]; ids: typeof internalIds }[] = [
  { user: 'admin', folder: 'internal', routes: INTERNAL_ROUTES, ids: internalIds },
  { user: 'warehouse', folder: 'warehouse', routes: WAREHOUSE_ROUTES, ids: () => Promise.resolve({}) },
  { user: 'supplier', folder: 'supplier', routes: SUPPLIER_ROUTES, ids: supplierIds },
  {
    user: null,
    folder: 'signed-out',
    routes: SIGNED_OUT_ROUTES.filter((route) => route !== '/auth/login'),
    ids: traceIds,
  },
];

test.describe('the first view of every route', () => {
  test.skip(process.env.E2E_ROUTE_PICTURES_OFF === '1', 'the route pictures need the pictures server: E2E_ROUTE_PICTURES=0, or E2E_BASE_URL without E2E_PICTURES_BASE_URL (playwright.config.ts)');
  for (const kind of KINDS) {
    test.describe(kind.folder, () => {
      // One context per view (light at desktop width, dark on a phone) and kind of user, signed in once.
      // Its first route is a full page load; every other one is opened inside the app as a link does
      // (routes.ts visitInApp): a page load per view spent most of the walk starting the app again. The
      // public trace page is a document of its own and is always loaded.
      let ids: Ids;
      let data: Set<string>;
      const views: { theme: Theme; size: string; viewport: typeof DESKTOP; context: BrowserContext; page: Page; loaded: boolean }[] = [];

      test.beforeAll(async ({ browser, request }) => {
        ids = await kind.ids(request);
        for (const shot of ROUTE_SHOTS) {
          const context = await newContext(browser, shot.viewport);
          const page = await context.newPage();
          if (shot.theme === 'light') data = recordData(page);
          await page.goto('/auth/login');
          await applyTheme(page, shot.theme);
          if (kind.user) await signIn(page, kind.user);
          views.push({ ...shot, context, page, loaded: false });
        }
      });

      test.afterAll(async () => {
        for (const view of views.splice(0)) await view.context.close();
      });

      for (const pattern of kind.routes) {
        test(pattern, async () => {
          const route = resolve(pattern, ids);
          const found: Found[] = [];
          for (const view of views) {
            const { page, theme, size } = view;
            if (view.loaded && !route.startsWith('/eudrtrace/')) await visitInApp(page, route, theme);
            else await visit(page, route, theme);
            view.loaded = !route.startsWith('/eudrtrace/');
            // Soft, so that a changed picture still lets axe and the language check say what they find.
            await expect.soft(page).toHaveScreenshot([kind.folder, `${pictureName(pattern)}-${size}-${theme}.png`], { mask: masks(page) });
            await analyze(page, `${route} (${size})`, theme, found);
            if (theme === 'light') expect.soft(chineseIn(await pageText(page), data), 'Chinese text in the English interface').toEqual([]);
          }
          expect(found, `critical or serious axe violations:\n${report(found)}`).toEqual([]);
        });
      }
    });
  }
});
