import { expect, test, type Page } from '@playwright/test';
import { axeOf } from './axe';
import { signIn } from './helpers';

/**
 * The top bar's menus in a real browser: the menubar by mouse and keyboard, the user menu and its
 * nested menu, each open menu checked by axe in the light and the dark theme.
 */

async function axeSerious(page: Page, include: string): Promise<string[]> {
  const result = await axeOf(page).include(include).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const theme of ['light', 'dark'] as const) {
  test(`the menubar and the user menu work by mouse and keyboard and pass axe (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/auth/login');
    await page.evaluate((dark) => window.localStorage.setItem('theme-config', JSON.stringify({ dark })), theme === 'dark');
    await signIn(page, 'admin');
    await page.goto('/purchase/eudr/raw-materials');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // The mouse: hovering opens Purchase, and EUDR Tracking beside it, the current page marked.
    const bar = page.getByRole('menubar', { name: 'Main menu' });
    await bar.getByRole('menuitem', { name: 'Purchase' }).hover();
    await page.getByRole('menuitem', { name: 'EUDR Tracking' }).hover();
    const eudr = page.getByRole('menu', { name: 'EUDR Tracking' });
    await expect(eudr.getByRole('menuitem', { name: 'Raw Materials' })).toHaveAttribute('aria-current', 'page');
    expect(await axeSerious(page, '[data-testid="desktop-menu"]')).toEqual([]);
    await eudr.getByRole('menuitem', { name: 'Supplier Policies' }).click();
    await expect(page).toHaveURL(/\/purchase\/eudr\/supplier-policies$/);
    await expect(page.getByRole('menu')).toHaveCount(0);

    // The keyboard: one tab stop, arrows across and down, Enter follows the link.
    await bar.getByRole('menuitem', { name: 'Sales' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(bar.getByRole('menuitem', { name: 'Warehouse' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Inventory' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(bar.getByRole('menuitem', { name: 'Warehouse' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/warehouse\/inventory$/);

    // The user menu: opened by the first click after the page loads, its nested menu on the start side.
    await page.getByTestId('user-menu').click();
    const userMenu = page.getByRole('menu', { name: 'User menu' });
    await expect(userMenu.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
    await userMenu.getByRole('menuitem', { name: 'User Management' }).click();
    await expect(page.getByRole('menu', { name: 'User Management' })).toBeVisible();
    const nested = await page.getByRole('menu', { name: 'User Management' }).boundingBox();
    const parent = await userMenu.boundingBox();
    expect(nested && parent && nested.x + nested.width <= parent.x + 8).toBeTruthy();
    expect(await axeSerious(page, '[data-testid="app-header"]')).toEqual([]);
    await page.getByRole('menuitem', { name: 'User List' }).click();
    await expect(page).toHaveURL(/\/user$/);

    // An action: Settings opens the theme drawer.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: /^Settings$/ }).click();
    await expect(page.getByTestId('theme-configurator')).toBeVisible();
  });
}
