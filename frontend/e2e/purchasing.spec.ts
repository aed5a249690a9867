import { expect, test, type Page } from '@playwright/test';
import { inputOf, pickOption, signIn } from './helpers';

/**
 * Purchasing: an internal user creates a purchase order; the supplier user of that order's parent
 * vendor sees it in the portal, opens it there (lines, comments) and comments on it; another vendor's
 * order is not found for them whatever the URL.
 * Screenshots: e2e/shots/purchasing.shots.ts.
 */

async function inTradingCompany(page: Page, dark = false): Promise<void> {
  await page.addInitScript((isDark) => {
    window.localStorage.setItem('tenant_id', '3');
    window.localStorage.setItem('theme-config', JSON.stringify({ dark: isDark }));
  }, dark);
}

test('an internal user creates an order; its supplier sees it in the portal, the other vendor does not', async ({ browser }) => {
  // Three users in three browser contexts: 42 s on a two-core CI machine, too near the default minute.
  test.setTimeout(180_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await inTradingCompany(admin);
  await signIn(admin, 'admin');

  await admin.goto('/purchase/orders');
  await expect(admin.getByRole('tab', { name: /^Confirmed \(\d+\)$/ })).toBeVisible();
  await admin.getByTestId('new-order').click();
  await expect(admin).toHaveURL(/\/purchase\/orders\/new$/);

  await pickOption(admin, admin.getByTestId('order-supplier'), 'S-1001', /S-1001/);
  await pickOption(admin, admin.getByTestId('line-product-0'), 'CT-SW', /CT-SW-4030 /);
  const qty = await inputOf(admin, 'line-qty-0');
  await qty.fill('500');
  const cost = await inputOf(admin, 'line-cost-0');
  await cost.fill('1.1');
  await expect(admin.getByTestId('line-amount-0')).toHaveText('US$550.00');
  await expect(admin.getByTestId('order-total')).toContainText('US$550.00');
  // the line's own delivery date (the order has no promise date)
  const delivery = admin.getByRole('textbox', { name: 'Delivery date, line 1' });
  await delivery.fill('2030-06-15');
  await delivery.press('Tab');
  await expect(delivery).toHaveValue('2030-06-15');
  await admin.getByTestId('order-save').click();

  await expect(admin).toHaveURL(/\/purchase\/orders\/PO-\d{4}-\d{5}$/);
  const orderNumber = decodeURIComponent(admin.url().split('/').pop() ?? '');
  // a new order is a draft: the supplier sees it once it is confirmed
  await expect(admin.getByTestId('order-status')).toHaveText('Draft');
  await expect(admin.getByTestId('receive-goods')).toHaveCount(0);
  await admin.getByTestId('order-confirm').click();
  await expect(admin.getByTestId('order-status')).toHaveText('Confirmed');
  await expect(admin.getByTestId('order-send')).toBeVisible();
  await expect(admin.getByTestId('order-total-amount')).toHaveText('US$550.00');
  await expect(admin.getByTestId('order-lines')).toContainText('CT-SW-4030');

  // An order of the other parent vendor (Ningbo Bluewave), to try as the first vendor's user.
  await admin.goto('/purchase/orders?search=Bluewave');
  const otherRow = admin.locator('.p-table-tbody tr.p-table-row').first();
  await expect(otherRow).toBeVisible();
  const otherNumber = ((await otherRow.locator('td').first().textContent()) ?? '').trim();
  expect(otherNumber).toMatch(/^PO-/);
  await adminContext.close();

  const supplierContext = await browser.newContext();
  const supplier = await supplierContext.newPage();
  await signIn(supplier, 'supplier');
  await supplier.goto('/supplier/orders');
  const mine = supplier.locator('.p-table-tbody tr.p-table-row', { hasText: orderNumber });
  await expect(mine).toBeVisible();
  await expect(supplier.locator('.p-table-tbody tr.p-table-row', { hasText: otherNumber })).toHaveCount(0);
  await expect(supplier.getByRole('columnheader', { name: 'Owner' })).toBeVisible();
  await expect(supplier.getByRole('columnheader', { name: 'Description' })).toBeVisible();

  // The row opens the order inside the portal: read-only, with its lines and its comments.
  await mine.click();
  await expect(supplier).toHaveURL(new RegExp(`/supplier/orders/${orderNumber}$`));
  await expect(supplier.getByTestId('layout-supplier')).toBeVisible();
  await expect(supplier.getByTestId('order-lines')).toContainText('CT-SW-4030');
  await expect(supplier.getByTestId('line-delivery-1')).toHaveText('15 Jun 2030');
  await expect(supplier.getByTestId('order-owner')).not.toHaveText('—');
  for (const action of ['receive-goods', 'edit-order']) await expect(supplier.getByTestId(action)).toHaveCount(0);
  await supplier.getByRole('tab', { name: 'Comments' }).click();
  const comments = supplier.getByTestId('comments-panel');
  await expect(comments).toBeVisible();
  const note = `Production starts Monday (${orderNumber})`;
  await comments.getByRole('textbox', { name: 'Write a comment…' }).fill(note);
  await comments.getByRole('button', { name: 'Send' }).click();
  await expect(comments.getByTestId('comment').filter({ hasText: note })).toBeVisible();
  await supplier.getByTestId('back-to-orders').click();
  await expect(supplier).toHaveURL(/\/supplier\/orders$/);

  // Searching for it, or opening it by URL, finds nothing.
  await supplier.goto(`/supplier/orders?search=${encodeURIComponent(otherNumber)}`);
  await expect(supplier.getByText('Nothing matches the search or filters')).toBeVisible();
  await supplier.goto(`/supplier/orders/${encodeURIComponent(otherNumber)}`);
  await expect(supplier.getByTestId('order-not-found')).toBeVisible();
  await expect(supplier.getByText(`No purchase order ${otherNumber}`)).toBeVisible();
  // The internal order page is not theirs, whichever order it names: the forbidden page.
  for (const number of [otherNumber, orderNumber]) {
    await supplier.goto(`/purchase/orders/${encodeURIComponent(number)}`);
    await expect(supplier.getByTestId('forbidden')).toBeVisible();
    await expect(supplier.getByTestId('edit-order')).toHaveCount(0);
  }
  await supplierContext.close();

  // The supplier's comment reaches the buyer on the internal order page.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await inTradingCompany(buyer);
  await signIn(buyer, 'admin');
  await buyer.goto(`/purchase/orders/${encodeURIComponent(orderNumber)}`);
  await buyer.getByRole('tab', { name: 'Comments' }).click();
  await expect(buyer.getByTestId('comment').filter({ hasText: `Production starts Monday (${orderNumber})` })).toBeVisible();
  await buyerContext.close();
});
