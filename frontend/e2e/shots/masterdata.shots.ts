import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../helpers';

/**
 * Screenshots of the master data pages (light, dark, phone) for people to look at: nothing is compared.
 * Runs only with SHOTS_DIR set (playwright.config.ts), so it is not counted among the tests.
 */
const SHOTS = process.env.SHOTS_DIR;

async function openInTradingCompany(page: Page, path: string): Promise<void> {
  await signIn(page, 'admin');
  await page.evaluate(() => window.localStorage.setItem('tenant_id', '3'));
  await page.goto(path);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/masterdata-${name}.png`, fullPage: true });
}

test.describe('screenshots', () => {
  for (const dark of [false, true]) {
    const mode = dark ? 'dark' : 'light';
    test(`master data pages ${mode}`, async ({ page }) => {
      await page.addInitScript((isDark) => {
        window.localStorage.setItem('theme-config', JSON.stringify({ dark: isDark }));
      }, dark);
      await openInTradingCompany(page, '/product');
      await expect(page.locator('.p-table-row').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await shot(page, `product-list-${mode}`);

      await page.locator('.p-table-row').first().click();
      await expect(page.getByTestId('product-details')).toBeVisible();
      await shot(page, `product-detail-${mode}`);
      await page.getByTestId('product-edit').click();
      await expect(page.getByTestId('product-form')).toBeVisible();
      await shot(page, `product-form-${mode}`);

      await page.goto('/product');
      await page.getByTestId('product-import').click();
      const csv = 'Article number,Name,HS code,Currency\nCT-SW-3020,Updated name,481910,EUR\nX-1,,48,EURO\n';
      await page.getByRole('dialog').locator('input[type=file]').setInputFiles({ name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByTestId('import-check').click();
      await expect(page.getByTestId('import-errors')).toBeVisible();
      await shot(page, `import-preview-${mode}`);
      await page.keyboard.press('Escape');

      await page.goto('/product-group');
      await expect(page.getByTestId('group-tree')).toContainText('Single wall');
      await shot(page, `product-groups-${mode}`);

      await page.goto('/customer');
      await expect(page.locator('.p-table-row').first()).toBeVisible();
      await shot(page, `customer-list-${mode}`);
      await page.locator('.p-table-row').first().click();
      await expect(page.getByTestId('customer-form')).toBeVisible();
      await page.waitForTimeout(400);
      await shot(page, `customer-drawer-${mode}`);
      await page.keyboard.press('Escape');

      await page.goto('/reports/import-export');
      await expect(page.getByTestId('resource-products')).toBeVisible();
      await shot(page, `import-export-${mode}`);
    });
  }

  test('phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openInTradingCompany(page, '/product');
    await expect(page.locator('.p-table-row').first()).toBeVisible();
    await shot(page, 'phone-product-list');
    await page.locator('.p-table-row').first().click();
    await page.getByTestId('product-edit').click();
    await expect(page.getByTestId('product-form')).toBeVisible();
    await shot(page, 'phone-product-form');
    await page.goto('/customer');
    await page.locator('.p-table-row').first().click();
    await expect(page.getByTestId('customer-form')).toBeVisible();
    await page.waitForTimeout(400);
    await shot(page, 'phone-customer-drawer');
  });
});
