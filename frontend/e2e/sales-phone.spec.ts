import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';
import { PHONE, axeClean, fitsThePhone, phoneSetup, type Theme } from './phone';

/**
 * Sales on a phone (390 x 844), in the light and the dark theme: the order list, a new order (customer
 * and a line), the order page, a shipment made from the order and shipped, the invoice of that shipment
 * with its draft note and payment terms edited, posted, and a payment recorded. At every step the page
 * does not scroll sideways, dialogs and action buttons stay inside the screen, and axe finds no
 * critical or serious violation. With SHOTS_DIR set, a screenshot of every step.
 */

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

async function token(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { access: string } }).data.access;
}

/** The article number of a product with cartons in the demo warehouse's stock (so a shipment of it can ship). */
async function productInStock(request: APIRequestContext): Promise<string> {
  // The journey ships without picking cartons: the company ships unlabelled stock (the delivery note
  // says so per line); without the setting a labelled line ships only picked cartons.
  const settings = await request.patch('/api/tenants/current/?tenant_id=3', {
    headers: { Authorization: `Bearer ${await token(request)}` },
    data: { allow_unlabelled_shipping: true },
  });
  expect(settings.ok(), await settings.text()).toBeTruthy();
  const answer = await request.get('/api/inventory/cartons/?tenant_id=3&status=in_stock&page_size=50', {
    headers: { Authorization: `Bearer ${await token(request)}` },
  });
  expect(answer.ok()).toBeTruthy();
  const body = (await answer.json()) as { data: { results: { article_number: string }[] } };
  const article = body.data.results[0]?.article_number ?? '';
  expect(article).not.toBe('');
  return article;
}

/** Checks one step: fits, axe, and a screenshot when SHOTS_DIR is set. */
async function step(page: Page, theme: Theme, name: string): Promise<void> {
  await fitsThePhone(page, name);
  await axeClean(page, name);
  const shots = process.env.SHOTS_DIR;
  if (shots) await page.screenshot({ path: `${shots}/sales-phone-${theme}-${name}.png`, fullPage: true });
}

async function pick(page: Page, field: Locator, search: string, option: RegExp): Promise<void> {
  await field.click();
  await page.keyboard.type(search);
  const choice = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: option }).first();
  await expect(choice).toBeVisible();
  await choice.click();
}

async function fill(page: Page, testId: string, value: string): Promise<void> {
  const input = page.getByTestId(testId).locator('input').first();
  await ((await input.count()) ? input : page.getByTestId(testId)).fill(value);
}

/** Clicks OK in the open confirmation bubble. */
async function confirmBubble(page: Page): Promise<void> {
  await page.locator('.p-popover:visible, .p-popconfirm:visible').getByRole('button', { name: /^OK$/ }).click();
}

for (const theme of ['light', 'dark'] as Theme[]) {
  test(`sales on a phone, ${theme}: order, shipment, invoice with its draft details, payment`, async ({ page, request }) => {
    test.setTimeout(240_000);
    const article = await productInStock(request);
    await phoneSetup(page, theme);
    await signIn(page, 'admin');
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /p-dark/ : /^(?!.*p-dark)/);

    // the order list
    await page.goto('/sales/orders');
    await expect(page.locator('.p-table-row').first()).toBeVisible({ timeout: 30_000 });
    await step(page, theme, '1-orders');

    // a new order: a customer and one line of 10 x 3.00 at 21 % VAT
    await page.goto('/sales/sales-order-detail');
    const selects = page.locator('.p-card .p-select');
    await expect(selects.first()).toBeVisible({ timeout: 30_000 });
    await pick(page, selects.filter({ has: page.getByRole('combobox', { name: 'Customer' }) }), 'C-', /C-/);
    await pick(page, selects.filter({ has: page.getByRole('combobox', { name: 'Product 1' }) }), article, new RegExp(article));
    await fill(page, 'line-quantity-0', '10');
    await fill(page, 'line-unit_price-0', '3');
    await fill(page, 'line-discount_percent-0', '0');
    await fill(page, 'line-vat_rate-0', '21');
    await expect(page.getByTestId('total-gross')).toContainText('36.30');
    await step(page, theme, '2-new-order');
    await page.getByTestId('save-confirm').click();

    // the order page
    await page.waitForURL(/\/sales\/orders\/\d+$/);
    await expect(page.getByTestId('sales-order-status')).toHaveText('Confirmed');
    await step(page, theme, '3-order');

    // a shipment of 4 from the order, shipped
    await page.getByTestId('new-shipment').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await fill(page, 'ship-qty-1', '4');
    await step(page, theme, '4-new-shipment');
    await page.getByTestId('create-shipment').click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('tab', { name: 'Shipments' }).click();
    await expect(page.getByTestId('shipment-number')).toBeVisible();
    await step(page, theme, '5-shipment');
    await page.getByTestId('ship-shipment').click();
    await confirmBubble(page);
    await expect(page.getByTestId('shipment-status')).toHaveText('Shipped');

    // its invoice: a draft whose note and payment terms are edited, then posted
    await page.getByTestId('invoice-shipment').click();
    await page.waitForURL(/\/sales\/invoices\/\d+$/);
    await expect(page.getByTestId('invoice-total-gross')).toContainText('14.52'); // 4 x 3.00 + 21 % VAT
    await page.getByLabel('Note').fill('Phone order, gate 4');
    await page.getByLabel('Payment terms (days)').fill('14');
    await step(page, theme, '6-draft-invoice');
    await page.getByTestId('save-invoice-details').click();
    await expect(page.getByTestId('save-invoice-details')).toBeDisabled();
    await page.getByTestId('post-invoice').click();
    await confirmBubble(page);
    await expect(page.getByText(/INV-\d{4}-\d{5}/).first()).toBeVisible();
    await expect(page.getByTestId('invoice-note')).toHaveText('Phone order, gate 4');
    await expect(page.getByTestId('invoice-terms')).toContainText('14');
    await step(page, theme, '7-posted-invoice');

    // the payment of the open amount
    await page.getByTestId('record-payment').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator('input[data-testid="payment-amount"], [data-testid="payment-amount"] input').first()).toHaveValue('14.52');
    await step(page, theme, '8-payment');
    await page.getByTestId('save-payment').click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    await step(page, theme, '9-paid');
  });
}
