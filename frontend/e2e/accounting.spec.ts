import { expect, test, type Page } from '@playwright/test';
import { signIn, userMenu } from './helpers';

/**
 * The accounting integration's pages with the demo data of tenant 3: a Visma.net connection to a sandbox
 * address that never resolves (so the test says in words that it cannot be reached), and demo sync-log
 * entries. A real Visma is not reachable from here; the adapters are tested against a fake Visma server in
 * the backend tests (apps/accounting/tests).
 */
async function inTenant(page: Page, tenantId: string): Promise<void> {
  await page.evaluate((id) => window.localStorage.setItem('tenant_id', id), tenantId);
}

test('an administrator checks the connection, saves it and reads the sync log', async ({ page }) => {
  await signIn(page, 'admin');
  await inTenant(page, '3');
  await page.goto('/');
  await userMenu(page, 'Accounting');
  await expect(page).toHaveURL(/\/settings\/accounting$/);
  await expect(page.getByLabel('API base URL')).toHaveValue('https://visma-sandbox.invalid/v1/');
  await expect(page.getByText('A secret is stored. Leave empty to keep it.')).toBeVisible();

  // The form validates before saving.
  await page.getByLabel('Token URL').fill('not an address');
  await page.getByLabel('Client id').fill('');
  await page.getByTestId('connection-save').click();
  await expect(page.getByText('Enter an http or https address')).toBeVisible();
  await expect(page.getByText('Required').first()).toBeVisible();
  await page.getByLabel('Token URL').fill('https://visma-sandbox.invalid/connect/token');
  await page.getByLabel('Client id').fill('cartontrace-e2e');
  await page.getByTestId('connection-save').click();
  await expect(page.getByText('Connection saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Client id')).toHaveValue('cartontrace-e2e');

  // The sandbox address does not resolve: the test says so in words.
  await page.getByTestId('connection-test').click();
  await expect(page.getByTestId('connection-test-result')).toContainText('could not be resolved');

  // The sync log lists the demo entries with Visma's message.
  await page.getByText('Sync log', { exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/accounting\/sync-log$/);
  await expect(page.getByText(/VatCode 1 is not valid/)).toBeVisible();
  await expect(page.getByText('Sent', { exact: true }).first()).toBeVisible();
  await page.getByText('Mappings', { exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/accounting\/mappings$/);
  await expect(page.getByText('30D')).toBeVisible();
});
