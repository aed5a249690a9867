/**
 * axe-core over every route of the app (src/app/router.tsx), in the light and the dark theme: no page
 * may have a critical or serious violation. Each kind of user signs in once (one browser context per
 * kind), then visits its routes with full page loads; detail pages use real demo ids read from the API.
 * The public trace page follows the phone's colour scheme (prefers-color-scheme), the app the stored
 * theme: both are set for each theme.
 *
 * Exclusions (none is a disabled rule): none at present. Add one only with the reason next to it.
 *
 * A page's first view is not all of it: selected table rows (once dark grey behind near-black text, 21
 * serious contrast findings) and open dialogs and panels draw colours of their own. The labels table of a
 * raw-material delivery is audited with rows selected, then with each of its dialogs and panels open.
 *
 * The walk in the light theme also reads each page for Chinese text in this English interface (e2e/
 * language.ts: records named in Chinese are data and pass); chinese-walk.spec.ts walks the other way.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signIn, type DemoUser } from './helpers';
import { chineseIn, pageText, recordData } from './language';
import { apiGet, INTERNAL_ROUTES, internalIds, resolve, settled, SIGNED_OUT_ROUTES, SUPPLIER_ROUTES, supplierIds, TENANT, token, traceIds, WAREHOUSE_ROUTES, type Ids } from './routes';

type Theme = 'light' | 'dark';
const THEMES: Theme[] = ['light', 'dark'];

interface Found {
  route: string;
  theme: Theme;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}


async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.addInitScript((tenant) => {
    if (!window.localStorage.getItem('tenant_id')) window.localStorage.setItem('tenant_id', tenant);
  }, TENANT);
  return context;
}

async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((dark) => {
    const stored = JSON.parse(window.localStorage.getItem('theme-config') ?? '{}') as Record<string, unknown>;
    window.localStorage.setItem('theme-config', JSON.stringify({ ...stored, dark }));
  }, theme === 'dark');
}

async function audit(page: Page, route: string, theme: Theme, found: Found[]): Promise<void> {
  const answer = await page.goto(route);
  expect(answer?.ok() ?? true, `${route} answered ${answer?.status()}`).toBeTruthy();
  await settled(page);
  // The app's pages carry the stored theme on <html>; the trace page follows the emulated colour scheme.
  if (!route.startsWith('/eudrtrace/')) {
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /p-dark/ : /^(?!.*p-dark)/);
  }
  await analyze(page, route, theme, found);
}

/** axe over the page as it is now (a state reached by clicks: selected rows, an open dialog). */
async function analyze(page: Page, route: string, theme: Theme, found: Found[]): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  for (const violation of results.violations) {
    const impact = violation.impact ?? 'unknown';
    test.info().annotations.push({ type: `axe ${impact}`, description: `${violation.id} (${violation.nodes.length})` });
    if (impact === 'critical' || impact === 'serious') {
      found.push({
        route,
        theme,
        rule: violation.id,
        impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')}${node.failureSummary ? `\n        ${node.failureSummary.replace(/\n/g, '\n        ')}` : ''}`),
      });
    }
  }
}

function report(found: Found[]): string {
  return found
    .map((f) => `${f.theme} ${f.route}: [${f.impact}] ${f.rule}: ${f.help}\n      ${f.targets.join('\n      ')}`)
    .join('\n');
}

const KINDS: { user: DemoUser | null; title: string; routes: string[]; ids: (request: APIRequestContext) => Promise<Ids> }[] = [
  { user: 'admin', title: 'internal user (admin)', routes: INTERNAL_ROUTES, ids: internalIds },
  { user: 'warehouse', title: 'warehouse user', routes: WAREHOUSE_ROUTES, ids: () => Promise.resolve({}) },
  { user: 'supplier', title: 'supplier', routes: SUPPLIER_ROUTES, ids: supplierIds },
  { user: null, title: 'signed out (login, public trace page)', routes: SIGNED_OUT_ROUTES, ids: traceIds },
];

test.describe('axe: no critical or serious violation', () => {
  for (const kind of KINDS) {
    test.describe(kind.title, () => {
      // One context per kind of user, signed in once; every page is a full page load in it.
      let context: BrowserContext;
      let page: Page;
      let ids: Ids;
      let data: Set<string>;

      test.beforeAll(async ({ browser, request }) => {
        ids = await kind.ids(request);
        context = await newContext(browser);
        page = await context.newPage();
        data = recordData(page);
        if (kind.user) await signIn(page, kind.user);
        else await page.goto('/auth/login');
      });

      test.afterAll(async () => {
        await context.close();
      });

      for (const theme of THEMES) {
        for (const pattern of kind.routes) {
          test(`${theme} ${pattern}`, async () => {
            await useTheme(page, theme);
            const found: Found[] = [];
            await audit(page, resolve(pattern, ids), theme, found);
            expect(found, `critical or serious axe violations:\n${report(found)}`).toEqual([]);
            if (theme === 'light') expect(chineseIn(await pageText(page), data), 'Chinese text in the English interface').toEqual([]);
          });
        }
      }
    });
  }
});

test.describe('axe: selected rows and open dialogs', () => {
  for (const theme of THEMES) {
    test(`${theme}: a delivery's generate dialog, its labels table with rows selected, the delete dialog, the print and export panels`, async ({ browser, request }) => {
      // Six axe runs on one page: a few minutes on a busy 2-core machine.
      test.setTimeout(300_000);
      // A delivery with cartons that may still be voided (labelled or in a container), so rows can be selected.
      const auth = await token(request, 'admin');
      const cartons = await apiGet<{ results: { raw_material: number; life: string }[] }>(request, auth, '/api/eudr/cartons/?status=active&page_size=100');
      const carton = cartons.results.find((row) => row.life === 'labelled' || row.life === 'in_container');
      expect(carton, 'the demo data has a carton that may be voided').toBeDefined();
      const context = await newContext(browser);
      const page = await context.newPage();
      await signIn(page, 'admin');
      await useTheme(page, theme);
      const route = resolve('/purchase/eudr/raw-materials/:rawMaterial', { rawMaterial: String(carton?.raw_material) });
      const found: Found[] = [];
      await audit(page, route, theme, found);

      await page.getByRole('button', { name: 'Generate cartons' }).click();
      await expect(page.getByTestId('generate-form')).toBeVisible();
      await analyze(page, `${route} (generate cartons dialog)`, theme, found);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByTestId('generate-form')).toBeHidden();

      const table = page.getByTestId('labels-table');
      const selectable = table.locator('tr.p-table-row').filter({ has: page.locator('input[type="checkbox"]:not([disabled])') });
      await expect(selectable.first(), 'the demo delivery has labels that may be selected').toBeVisible();
      const picked = Math.min(2, await selectable.count());
      for (let index = 0; index < picked; index += 1) await selectable.nth(index).locator('.p-table-selection-column .p-checkbox-wrapper').click();
      await expect(table.locator('tr.p-table-row-selected')).toHaveCount(picked);
      await analyze(page, `${route} (rows selected)`, theme, found);

      await page.getByTestId('delete-labels').click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await analyze(page, `${route} (delete dialog)`, theme, found);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();

      await page.getByTestId('print-labels').click();
      await expect(page.getByTestId('print-panel')).toBeVisible();
      await analyze(page, `${route} (print panel)`, theme, found);
      await page.getByTestId('print-labels').click();
      await expect(page.getByTestId('print-panel')).toBeHidden();

      await page.getByTestId('export-labels').click();
      await expect(page.getByTestId('export-labels-run')).toBeVisible();
      await analyze(page, `${route} (export panel)`, theme, found);

      expect(found, `critical or serious axe violations:\n${report(found)}`).toEqual([]);
      await context.close();
    });
  }
});
