/**
 * A downstream trader (the demo's Nordic Packaging AB, tenant 2) records the reference number a supplier
 * gave with its goods and sees it kept for 5 years. The test server has no EU information system, so the
 * reference stays "Not checked" with the reason shown.
 */
import { expect, test } from '@playwright/test';
import { axeOf } from './axe';
import { signIn } from './helpers';

const DOWNSTREAM_TENANT = '2';

test('a downstream trader records a supplier reference at receipt and keeps it', async ({ page }) => {
  await page.addInitScript((tenant) => window.localStorage.setItem('tenant_id', tenant), DOWNSTREAM_TENANT);
  await signIn(page, 'admin');
  await page.goto('/purchase/eudr/received-references');
  // The demo's reference of the first 2026 order is listed.
  await expect(page.getByText('26NLX7TVCZAQ2S').first()).toBeVisible();

  const suffix = Date.now().toString(36).toUpperCase().slice(-8).padStart(8, '0');
  const reference = `26SE${suffix}XY`;
  const document = `DN-E2E-${suffix}`;
  await page.getByTestId('received-new').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Supplier' }).click();
  await page.getByTitle('Shanghai Evergreen Packaging').click();
  await dialog.getByTestId('received-document').fill(document);
  await dialog.getByTestId('received-reference').fill('26SE-1234');
  await dialog.getByTestId('received-verification').fill('E2EVERIFY1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/No spaces or hyphens inside/)).toBeVisible();
  await dialog.getByTestId('received-reference').fill(reference.toLowerCase());
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(document);
  await search.press('Enter');
  const row = page.getByRole('row', { name: new RegExp(reference) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(document);
  await expect(row).toContainText(String(new Date().getFullYear() + 5));
  const result = row.getByText('Not checked');
  await expect(result).toBeVisible();
  await result.hover();
  await expect(page.getByRole('tooltip')).not.toBeEmpty();

  const axe = await axeOf(page).analyze();
  const serious = axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.length}`);
  expect(serious).toEqual([]);
});
