import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'demo1234';

export type DemoUser = 'admin' | 'sales' | 'warehouse' | 'supplier' | 'supplier2';

/** Signs in through the real login page and waits for the app to leave it. */
export async function signIn(page: Page, username: DemoUser, options: { from?: string } = {}): Promise<void> {
  await page.goto(options.from ?? '/auth/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await page.locator('input#username').fill(username);
  await page.locator('input#password').fill(PASSWORD);
  await page.locator('form[data-testid="login-form"] button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'));
}

export async function storage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/** Opens the user menu and clicks one of its entries by visible text. */
export async function userMenu(page: Page, entry: string | RegExp): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: entry }).click();
}
