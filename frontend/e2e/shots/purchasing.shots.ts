import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../helpers';

/**
 * Screenshots of the orders list, an order and the portal in light and dark, for people to look at:
 * nothing is compared. Runs only with SHOTS_DIR set (playwright.config.ts), so it is not counted.
 */
const shots = process.env.SHOTS_DIR;

async function inTradingCompany(page: Page, dark = false): Promise<void> {
  await page.addInitScript((isDark) => {
    window.localStorage.setItem('tenant_id', '3');
    window.localStorage.setItem('theme-config', JSON.stringify({ dark: isDark }));
  }, dark);
}

test.describe('purchasing screenshots', () => {
  for (const dark of [false, true]) {
    const mode = dark ? 'dark' : 'light';
    test(`orders list, order and portal (${mode})`, async ({ page }) => {
      await inTradingCompany(page, dark);
      await signIn(page, 'admin');
      await page.goto('/purchase/orders');
      await expect(page.locator('.p-table-tbody tr.p-table-row').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/purchasing-orders-${mode}.png`, fullPage: true });

      await page.goto('/purchase/orders?search=Kitchenware');
      await page.locator('.p-table-tbody tr.p-table-row').first().click();
      await expect(page.getByTestId('order-lines')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/purchasing-order-${mode}.png`, fullPage: true });

      await page.getByTestId('receive-goods').click();
      await expect(page.getByTestId('receive-submit')).toBeVisible();
      await page.screenshot({ path: `${shots}/purchasing-receive-${mode}.png` });
      await page.keyboard.press('Escape');

      await page.goto('/purchase/orders/new');
      await expect(page.getByTestId('order-form')).toBeVisible();
      await page.screenshot({ path: `${shots}/purchasing-order-form-${mode}.png`, fullPage: true });

      await page.goto('/purchase/shipments');
      await expect(page.locator('.p-table-tbody tr.p-table-row').first()).toBeVisible();
      await page.screenshot({ path: `${shots}/purchasing-shipments-${mode}.png`, fullPage: true });
      await page.locator('.p-table-tbody tr.p-table-row').first().click();
      await expect(page.locator('.p-drawer')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/purchasing-shipment-${mode}.png` });
      await page.keyboard.press('Escape');

      await page.goto('/purchase/shipment-companies');
      await expect(page.locator('.p-table-tbody tr.p-table-row').first()).toBeVisible();
      await page.screenshot({ path: `${shots}/purchasing-carriers-${mode}.png`, fullPage: true });

      await page.goto('/purchase/receipts');
      await expect(page.locator('.p-table-tbody tr.p-table-row').first()).toBeVisible();
      await page.screenshot({ path: `${shots}/purchasing-receipts-${mode}.png`, fullPage: true });
    });

    test(`supplier portal (${mode})`, async ({ page }) => {
      await inTradingCompany(page, dark);
      await signIn(page, 'supplier');
      await page.goto('/supplier/orders');
      const row = page.locator('.p-table-tbody tr.p-table-row').first();
      await expect(row).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/purchasing-portal-${mode}.png`, fullPage: true });
      // an order with cartons issued (demo: the spring range), its first line expanded
      await page.locator('.p-table-tbody tr.p-table-row', { hasText: 'Spring range' }).click();
      await expect(page.getByTestId('order-lines')).toBeVisible();
      const expand = page.getByTestId('order-lines').getByRole('button', { name: /expand row/i }).first();
      if ((await expand.count()) > 0) await expand.click();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/purchasing-portal-order-${mode}.png`, fullPage: true });
      await page.getByRole('tab', { name: 'Comments' }).click();
      await expect(page.getByTestId('comments-panel')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/purchasing-portal-comments-${mode}.png`, fullPage: true });
    });
  }

  test('phone: orders and an order', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await inTradingCompany(page);
    await signIn(page, 'admin');
    await page.goto('/purchase/orders');
    await expect(page.locator('.p-table-tbody tr.p-table-row').first()).toBeVisible();
    await page.screenshot({ path: `${shots}/purchasing-phone-orders.png`, fullPage: true });
    await page.locator('.p-table-tbody tr.p-table-row').first().click();
    await expect(page.getByTestId('order-lines')).toBeVisible();
    await page.screenshot({ path: `${shots}/purchasing-phone-order.png`, fullPage: true });
  });
});
