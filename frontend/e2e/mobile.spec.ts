import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('at 960px the menubar becomes a menu button that opens and closes', async ({ page }) => {
  await page.setViewportSize({ width: 960, height: 800 });
  await signIn(page, 'admin');
  await expect(page.getByTestId('desktop-menu')).toHaveCount(0);
  const button = page.getByTestId('mobile-menu-button');
  await expect(button).toBeVisible();

  await button.click();
  const drawer = page.locator('.p-drawer-section').filter({ has: page.locator('.p-menu-inline') });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText('Sales');
  await expect(button).toHaveAttribute('aria-expanded', 'true');

  // The open drawer covers the menu button: it closes with its own close button, and with Escape.
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // Opening again and following a link navigates and closes the menu.
  await button.click();
  await drawer.getByText('Products', { exact: true }).click();
  await drawer.getByRole('link', { name: 'Product List' }).click();
  await expect(page).toHaveURL(/\/product$/);
  await expect(drawer).toBeHidden();
});

test('above 960px the full menubar is shown', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 800 });
  await signIn(page, 'admin');
  await expect(page.getByTestId('desktop-menu')).toBeVisible();
  await expect(page.getByTestId('mobile-menu-button')).toHaveCount(0);
});
