/**
 * axe-core over what a page's first view does not show. The first view of every route is audited by the
 * walk of pictures.spec.ts (light at desktop width, dark on a phone, beside each picture); here, the
 * states reached by clicks: selected table rows (once dark grey behind near-black text, 21 serious
 * contrast findings) and open dialogs and panels draw colours of their own. The labels table of a
 * raw-material delivery is audited with rows selected, then with each of its dialogs and panels open,
 * in the light and the dark theme at desktop width.
 *
 * Exclusions (none is a disabled rule): none at present. Add one only with the reason next to it.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { analyze, report, type Found } from './axe';
import { applyTheme, signIn } from './helpers';
import type { Theme } from './phone';
import { apiGet, resolve, TENANT, token, visit } from './routes';

const THEMES: Theme[] = ['light', 'dark'];

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.addInitScript((tenant) => {
    if (!window.localStorage.getItem('tenant_id')) window.localStorage.setItem('tenant_id', tenant);
  }, TENANT);
  return context;
}

async function audit(page: Page, route: string, theme: Theme, found: Found[]): Promise<void> {
  await visit(page, route, theme);
  await analyze(page, route, theme, found);
}

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
      await applyTheme(page, theme);
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
