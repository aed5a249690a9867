import { expect, test } from '@playwright/test';
import { signIn, type DemoUser } from '../helpers';

/**
 * Screenshots of each layout in light and dark, for people to look at (not compared by the test).
 * Runs only with SHOTS_DIR set (playwright.config.ts), e.g. SHOTS_DIR=/tmp/shots npx playwright test shots/layout,
 * so it is not counted among the tests.
 */
const dir = process.env.SHOTS_DIR;

const CASES: { user: DemoUser; path: string; name: string }[] = [
  { user: 'admin', path: '/', name: 'default-home' },
  { user: 'admin', path: '/sales/orders', name: 'default-placeholder' },
  { user: 'warehouse', path: '/', name: 'warehouse-home' },
  { user: 'supplier', path: '/', name: 'supplier-home' },
];

test.describe('layout screenshots', () => {
  for (const { user, path, name } of CASES) {
    for (const dark of [false, true]) {
      test(`${name} ${dark ? 'dark' : 'light'}`, async ({ page }) => {
        await page.addInitScript((isDark) => {
          window.localStorage.setItem('theme-config', JSON.stringify({ dark: isDark }));
        }, dark);
        await signIn(page, user);
        await page.goto(path);
        await expect(page.getByTestId('app-header')).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: `${dir}/${name}-${dark ? 'dark' : 'light'}.png`, fullPage: true });
      });
    }
  }

  test('login and mobile', async ({ page }) => {
    await page.goto('/auth/login');
    await page.screenshot({ path: `${dir}/login.png` });
    await page.setViewportSize({ width: 420, height: 800 });
    await signIn(page, 'admin');
    await page.getByTestId('mobile-menu-button').click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}/mobile-menu.png` });
  });
});
