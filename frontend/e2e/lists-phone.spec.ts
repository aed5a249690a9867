import { expect, test, type Page } from '@playwright/test';
import { signIn, type DemoUser } from './helpers';
import { PHONE, axeClean, fitsThePhone, listFitsThePhone, phoneSetup, type Theme } from './phone';
import { openInApp } from './routes';

/**
 * The lists on a phone (390 x 844), in the light and the dark theme, as each of their users sees them:
 * the sales orders, shipments and invoices, goods receipts, inbound shipments and raw-material
 * deliveries of the office, the supplier's own deliveries, and the warehouse's pages. On each, with
 * its rows shown: the page does not scroll sideways, the list shows its columns without scrolling
 * sideways inside its frame either (on a phone a row is the document's number with a line or two
 * under it, and its status or amount), and axe finds no critical or serious violation. With SHOTS_DIR
 * set, a screenshot of every list. After signing in, each list is opened inside the app as a link does.
 */

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

const LISTS: [DemoUser, string[]][] = [
  ['admin', [
    '/sales/orders',
    '/sales/shipment',
    '/sales/invoices',
    '/purchase/receipts',
    '/purchase/shipments',
    '/purchase/eudr/raw-materials',
  ]],
  // The purchase orders, the deliveries due, and the products and suppliers.
  ['admin', ['/purchase/orders', '/sales/deliveries', '/product', '/purchase/suppliers']],
  // The users, parent vendors, carriers and EUDR supplier policies.
  ['admin', ['/user', '/purchase/parent-vendors', '/purchase/shipment-companies', '/purchase/eudr/supplier-policies']],
  ['supplier', ['/supplier/raw-materials']],
  ['warehouse', ['/warehouse/shipments']],
];

async function checkList(page: Page, theme: Theme, path: string): Promise<void> {
  await openInApp(page, path);
  await expect(page.locator('.p-table-row').first()).toBeVisible({ timeout: 30_000 });
  // The top bar as it stays: the warehouse layout's company selector shows the company once it is loaded.
  const company = page.getByTestId('tenant-selector');
  if (await company.count()) await expect(company).toContainText('EuroTrade');
  await fitsThePhone(page, path);
  await listFitsThePhone(page, path);
  await axeClean(page, path);
  const shots = process.env.SHOTS_DIR;
  if (shots) await page.screenshot({ path: `${shots}/lists-phone-${theme}${path.replaceAll('/', '-')}.png`, fullPage: true });
}

for (const theme of ['light', 'dark'] as Theme[]) {
  for (const [user, paths] of LISTS) {
    test(`lists on a phone, ${theme}, as ${user}: ${paths.join(', ')}`, async ({ page }) => {
      test.setTimeout(180_000);
      await phoneSetup(page, theme);
      await signIn(page, user);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /p-dark/ : /^(?!.*p-dark)/);
      for (const path of paths) await checkList(page, theme, path);
    });
  }
}

/** The warehouse layout's other pages: stock, pickups and the shipments to pick (a list may be empty). */
const WAREHOUSE_PAGES = ['/warehouse/inventory', '/warehouse/inventory?tab=totals', '/warehouse/inventory?tab=moves', '/warehouse/logistics', '/warehouse/deliveries'];

for (const theme of ['light', 'dark'] as Theme[]) {
  test(`the warehouse pages on a phone, ${theme}: ${WAREHOUSE_PAGES.join(', ')}`, async ({ page }) => {
    test.setTimeout(180_000);
    await phoneSetup(page, theme);
    await signIn(page, 'warehouse');
    for (const path of WAREHOUSE_PAGES) {
      await openInApp(page, path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('tenant-selector')).toContainText('EuroTrade');
      await expect(page.locator('.p-table').first()).toBeVisible();
      await expect(page.getByTestId('table-loading')).toHaveCount(0, { timeout: 30_000 });
      await fitsThePhone(page, path);
      await listFitsThePhone(page, path);
      await axeClean(page, path);
    }
  });
}
