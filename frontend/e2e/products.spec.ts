import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

/**
 * Products master data: create, edit, search and delete a product; import a file with one bad row
 * and see the row error (nothing imported). Screenshots: e2e/shots/.
 */

async function openInTradingCompany(page: Page, path: string): Promise<void> {
  await signIn(page, 'admin');
  await page.evaluate(() => window.localStorage.setItem('tenant_id', '3'));
  await page.goto(path);
}

async function searchList(page: Page, term: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search' }).or(page.getByPlaceholder('Article number, name, HS code…'));
  await box.first().fill(term);
  await box.first().press('Enter');
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(term)}`));
}

test('create, edit, search and delete a product', async ({ page }) => {
  await openInTradingCompany(page, '/product');
  await expect(page.locator('.p-table-row').first()).toBeVisible();

  await page.getByTestId('product-new').click();
  await expect(page).toHaveURL(/\/product\/create$/);
  const form = page.getByTestId('product-form');
  await form.getByLabel('Article number').fill('E2E-1001');
  await form.getByLabel('Name', { exact: true }).fill('E2E carton 300x200x150');
  await form.getByLabel('Chinese name').fill('测试纸箱');
  await form.getByLabel('Group').click();
  await page.locator('.p-select-tree-title', { hasText: 'Single wall' }).first().click();
  await form.getByLabel('Carton weight (kg)').fill('0,45');
  await form.getByLabel('Length (mm)').fill('300');
  await form.getByLabel('Width (mm)').fill('200');
  await form.getByLabel('Height (mm)').fill('150');
  // Client-side check mirrors the server: an HS code of 2 digits is refused before sending.
  await form.getByLabel('HS code').fill('48');
  await page.getByTestId('product-save').click();
  await expect(form.getByText('Enter an HS code of 4 to 10 digits')).toBeVisible();
  await form.getByLabel('HS code').fill('4819.10');
  await form.getByLabel('Sales price').fill('0.79');
  await page.getByTestId('product-save').click();

  await expect(page).toHaveURL(/\/product\/\d+$/);
  const details = page.getByTestId('product-details');
  await expect(details).toContainText('E2E carton 300x200x150');
  await expect(details).toContainText('Corrugated cartons / Single wall');
  await expect(page.getByText('481910')).toBeVisible();
  await expect(page.getByText('0.450 kg')).toBeVisible();

  await page.getByTestId('product-edit').click();
  await expect(page).toHaveURL(/\/product\/\d+\/edit$/);
  await form.getByLabel('Name', { exact: true }).fill('E2E carton, edited');
  await page.getByTestId('product-save').click();
  await expect(page).toHaveURL(/\/product\/\d+$/);
  await expect(details).toContainText('E2E carton, edited');

  await page.goto('/product');
  await searchList(page, 'E2E-1001');
  const rows = page.locator('.p-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('E2E carton, edited');
  await rows.first().click();
  await expect(page).toHaveURL(/\/product\/\d+$/);

  await page.getByTestId('product-delete').click();
  await page.locator('.p-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/product$/);
  await searchList(page, 'E2E-1001');
  await expect(page.getByText('Nothing matches the search or filters')).toBeVisible();
});

test('unsaved changes ask before leaving the form', async ({ page }) => {
  await openInTradingCompany(page, '/product/create');
  await page.getByTestId('product-form').getByLabel('Article number').fill('E2E-UNSAVED');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/product\/create$/);
});

test('importing a file with one bad row shows the row error and imports nothing', async ({ page }) => {
  await openInTradingCompany(page, '/product');
  await page.getByTestId('product-import').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const csv = [
    'Article number,Name,Group,Weight per carton (kg),HS code',
    'E2E-IMP-1,Imported carton one,CC-SW,0.35,481910',
    'E2E-IMP-2,Imported carton two,CC-SW,0.40,48',
    'E2E-IMP-3,Imported carton three,CC-DW,0.90,481910',
  ].join('\n');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByTestId('import-check').click();
  const errors = page.getByTestId('import-errors');
  await expect(errors).toBeVisible();
  await expect(errors.locator('tbody tr.p-table-row')).toHaveCount(1);
  await expect(errors).toContainText('3');
  await expect(errors).toContainText('HS code');
  await expect(errors).toContainText('Enter an HS code of 4 to 10 digits');
  await expect(page.getByTestId('import-report')).toContainText('1 row has errors');
  await expect(page.getByTestId('import-commit')).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await searchList(page, 'E2E-IMP');
  await expect(page.getByText('Nothing matches the search or filters')).toBeVisible();
});
