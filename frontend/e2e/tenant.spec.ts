import { expect, test } from '@playwright/test';
import { signIn, storage, userMenu } from './helpers';

test('switching company stores tenant_id and reloads the whole page', async ({ page }) => {
  await signIn(page, 'admin');
  const before = await storage(page, 'tenant_id');
  // The admin starts in the empty Sandbox, and the home page says so and where to go.
  await expect(page.getByTestId('home-empty-company')).toBeVisible();
  await userMenu(page, 'Switch Company');
  const modal = page.getByRole('dialog', { name: 'Select company' });
  await expect(modal).toBeVisible();
  const selector = modal.getByTestId('tenant-selector');
  await expect(selector).toHaveAttribute('title', 'Select company');
  await selector.click();
  const options = page.locator('.p-select-dropdown:visible .p-select-item-option');
  await expect(options).toHaveCount(3);
  // Pick a company other than the current one.
  const target = page.locator('.p-select-dropdown:visible .p-select-item-option:not(.p-select-item-option-selected)').first();
  const name = (await target.textContent()) ?? '';
  await page.evaluate(() => {
    (window as unknown as { beforeSwitch: boolean }).beforeSwitch = true;
  });
  await target.click();
  await page.waitForFunction(() => !(window as unknown as { beforeSwitch?: boolean }).beforeSwitch);
  const after = await storage(page, 'tenant_id');
  expect(after).not.toBe(before);
  await expect(page.getByTestId('current-company')).toHaveText(name);
  // The other demo companies have records: no empty-company notice there.
  await expect(page.getByTestId('home-counts')).toBeVisible();
  await expect(page.getByTestId('home-empty-company')).toHaveCount(0);
});

test('the warehouse layout offers only the trading company', async ({ page }) => {
  await signIn(page, 'warehouse');
  const selector = page.getByTestId('tenant-selector');
  await expect(selector).toHaveAttribute('title', 'Select company');
  await selector.click();
  const options = page.locator('.p-select-dropdown:visible .p-select-item-option');
  await expect(options).toHaveCount(1);
  expect(await storage(page, 'tenant_id')).toBe('3');
});
