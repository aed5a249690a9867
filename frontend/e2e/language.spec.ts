import { expect, test } from '@playwright/test';
import { pickLanguage, signIn, storage } from './helpers';

test('the language switch changes the UI at once and is remembered', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.getByTestId('language-switcher').selectOption({ label: '中文' });
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
  expect(await storage(page, 'app-language')).toBe('zh');
  await expect(page).toHaveTitle(/登录/);

  await page.locator('input#username').fill('admin');
  await page.locator('input#password').fill('demo1234');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByTestId('desktop-menu')).toContainText('销售');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  await page.reload();
  await expect(page.getByTestId('desktop-menu')).toContainText('采购');
});

test('the default language follows the browser', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
  expect(await storage(page, 'app-language')).toBe('zh');
  await context.close();
});

test('the supplier layout has its own language switcher', async ({ page }) => {
  await signIn(page, 'supplier');
  await page.getByTestId('language-switcher').selectOption({ label: '中文' });
  await expect(page.getByTestId('supplier-menu-raw-materials')).toHaveText('原材料');
});

test('the default layout has a language switch in the header, and in the mobile menu at 960px', async ({ page }) => {
  await signIn(page, 'admin');
  const header = page.getByTestId('app-header');
  await pickLanguage(header, '中文', () => expect(page.getByTestId('desktop-menu')).toContainText('销售'));
  expect(await storage(page, 'app-language')).toBe('zh');

  await page.setViewportSize({ width: 960, height: 800 });
  await page.getByTestId('mobile-menu-button').click();
  const tools = page.getByTestId('mobile-menu-tools');
  await pickLanguage(tools, 'English', () =>
    expect(page.locator('.p-drawer-section').filter({ has: page.locator('.p-menu-inline') })).toContainText('Sales'),
  );
  expect(await storage(page, 'app-language')).toBe('en');
});
