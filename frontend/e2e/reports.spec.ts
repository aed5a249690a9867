import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { pickOption, signIn } from './helpers';

/**
 * Report lab: an internal user builds "cartons per parent vendor per month" as a bar chart, saves it,
 * reopens it from its link and from the saved reports, and exports it as XLSX.
 */
async function inTradingCompany(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
}

async function choose(page: Page, label: string, search: string, option: RegExp): Promise<void> {
  await pickOption(page, page.getByRole('combobox', { name: label, exact: true }), search, option);
}

test('build cartons per parent vendor per month as a bar chart, save it, reopen it, export XLSX', async ({ page }) => {
  // A report built step by step, saved, reopened twice and exported: about 50 s on a busy two-core machine,
  // more than the default minute on a slower one.
  test.setTimeout(180_000);
  await inTradingCompany(page);
  await signIn(page, 'admin');
  await page.goto('/reports');
  await expect(page.getByRole('combobox', { name: 'Dataset' })).toBeVisible();
  await choose(page, 'Dataset', 'Carton', /^Carton labels$/);
  await choose(page, 'Group 1', 'issued', /^issued on$/);
  await expect(page.getByRole('combobox', { name: 'Period of issued on' })).toBeVisible();
  await choose(page, 'Group 2', 'parent', /^parent vendor$/);

  const table = page.locator('.p-table');
  await expect(table.getByText('Shanghai Evergreen Packaging').first()).toBeVisible();
  await expect(table.getByText('Total', { exact: true })).toBeVisible();
  await expect(table.getByText('Subtotal').first()).toBeVisible();

  await page.locator('.p-segmented-item').filter({ hasText: /^Bar$/ }).click();
  await expect(page.getByRole('img', { name: 'Carton labels' })).toBeVisible();
  await expect(page.locator('canvas').first()).toBeVisible();

  // A figure opens the records behind it.
  await table.getByRole('button', { name: /show the records/ }).first().click();
  const drawer = page.locator('.p-drawer').filter({ hasText: 'Records' });
  await expect(drawer.getByRole('row').nth(1)).toBeVisible();
  await expect(drawer.getByRole('columnheader', { name: 'code', exact: true })).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();

  const name = `Cartons per vendor per month ${Date.now()}`;
  await page.getByRole('button', { name: 'Save as…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the report' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/reports\?report=\d+/);
  await expect(page.getByText(`Report: ${name}`)).toBeVisible();
  const url = page.url();

  // Reopened from its link: the same question and chart.
  await page.goto('/');
  await page.goto(url);
  await expect(page.getByText(`Report: ${name}`)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Group 2' })).toBeVisible();
  await expect(page.locator('.p-table').getByText('Shanghai Evergreen Packaging').first()).toBeVisible();
  await expect(page.locator('canvas').first()).toBeVisible();

  // And from the saved reports.
  await page.getByRole('button', { name: 'New report' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await page.getByRole('button', { name: 'Saved reports' }).click();
  await page.getByRole('button', { name: `Open ${name}` }).click();
  await expect(page.getByText(`Report: ${name}`)).toBeVisible();

  // The popup menu opens on a click; a click that lands while the opened report still renders can be
  // lost, so the button is clicked again until the menu shows (a click on an open menu is not repeated).
  const xlsx = page.getByRole('menuitem', { name: 'Table as Excel (XLSX)' });
  await expect(async () => {
    if (!(await xlsx.isVisible())) await page.getByRole('button', { name: 'Export' }).click();
    await expect(xlsx).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  const downloadPromise = page.waitForEvent('download');
  await xlsx.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const file = readFileSync(await download.path());
  expect(file.subarray(0, 2).toString()).toBe('PK');
  expect(file.length).toBeGreaterThan(1000);
});
