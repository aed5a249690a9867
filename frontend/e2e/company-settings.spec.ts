import { expect, test, type Page } from '@playwright/test';
import { signIn, userMenu } from './helpers';

/** Screenshots for people to look at when SHOTS_DIR is set (not compared). */
const dir = process.env.SHOTS_DIR;

async function inTenant(page: Page, tenantId: string): Promise<void> {
  await page.evaluate((id) => window.localStorage.setItem('tenant_id', id), tenantId);
}

test('an administrator keeps the operator details of due diligence statements', async ({ page }) => {
  await signIn(page, 'admin');
  await inTenant(page, '3');
  await page.goto('/');
  await userMenu(page, 'Company settings');
  await expect(page).toHaveURL(/\/settings\/company$/);
  await expect(page.getByRole('heading', { name: 'Company settings' })).toBeVisible();
  await expect(page.getByTestId('statement-ready')).toBeVisible();
  await expect(page.getByTestId('company-name')).toHaveText('EuroTrade Goods BV');
  await expect(page.getByLabel('EORI number')).toHaveValue('NL862345678');
  if (dir) await page.screenshot({ path: `${dir}/company-settings-light.png`, fullPage: true });

  const phone = page.getByLabel('Phone');
  await phone.fill('+31 10 765 4321');
  await page.getByTestId('company-settings-save').click();
  await expect(page.getByText('Company settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Phone')).toHaveValue('+31 10 765 4321');

  // A representative must name the represented operator before saving.
  await page.getByText('Authorised representative').click();
  await page.getByTestId('company-settings-save').click();
  await expect(page.getByText('Required when the company files as an authorised representative.').first()).toBeVisible();
  if (dir) await page.screenshot({ path: `${dir}/company-settings-representative-light.png`, fullPage: true });
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByTestId('represented-operator')).toHaveCount(0);
});

test('other internal users read the settings without changing them', async ({ page }) => {
  await signIn(page, 'sales');
  await userMenu(page, 'Company settings');
  await expect(page.getByTestId('company-read-only')).toBeVisible();
  await expect(page.getByLabel('Legal name')).toBeDisabled();
  await expect(page.getByTestId('company-settings-save')).toHaveCount(0);
});
