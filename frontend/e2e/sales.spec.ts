import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { PASSWORD, shippableCartons, signIn } from './helpers';

/**
 * Sales: an internal user creates an order on the new-order page and confirms it, ships part of it with
 * two carton labels (typed into the carton field as a scanner would), invoices the shipment, posts the
 * invoice and opens its PDF.
 */

async function apiToken(request: APIRequestContext, username: string): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const body = (await login.json()) as { data: { access: string } };
  return body.data.access;
}

/** Two cartons of one product that are in the demo warehouse's stock (received and put away: only
 * those may go on a shipment), and that product's article number. */
async function twoCartonsInStock(request: APIRequestContext): Promise<{ article: string; codes: string[] }> {
  const token = await apiToken(request, 'admin');
  // The journey ships more than its two cartons: the company ships the rest as unlabelled stock (the
  // delivery note says so per line); without the setting a labelled line ships only picked cartons.
  const settings = await request.patch('/api/tenants/current/?tenant_id=3', {
    headers: { Authorization: `Bearer ${token}` },
    data: { allow_unlabelled_shipping: true },
  });
  expect(settings.ok(), await settings.text()).toBeTruthy();
  // cartons that surely may ship first (helpers.ts): a product with two of them if there is one
  const { cartons, sure } = await shippableCartons<{ code: string; article_number: string; inbound_shipment: number | null }>(request, token);
  const count = (pool: typeof cartons, article: string) => pool.filter((c) => c.article_number === article).length;
  const surest = cartons.slice(0, sure);
  const article = surest.find((c) => count(surest, c.article_number) >= 2)?.article_number ?? cartons[0]?.article_number ?? '';
  const pool = count(surest, article) >= 2 ? surest : cartons;
  const codes = pool.filter((c) => c.article_number === article).map((c) => c.code);
  expect(codes.length).toBeGreaterThanOrEqual(2);
  // a random pair: a rerun against the same server does not pick cartons already on a shipment
  const start = Math.floor(Math.random() * (codes.length - 1));
  return { article, codes: codes.slice(start, start + 2) };
}

async function pick(page: Page, field: Locator, search: string, option: RegExp): Promise<void> {
  await field.click();
  await page.keyboard.type(search);
  const choice = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: option }).first();
  await expect(choice).toBeVisible();
  await choice.click();
}

/** The new-order page with a customer and one line of 10 x 3.00 at 21 % VAT: totals follow the typing. */
async function fillNewOrder(page: Page, article: string): Promise<void> {
  await page.goto('/sales/sales-order-detail');
  const selects = page.locator('.p-card .p-select');
  await expect(selects.first()).toBeVisible({ timeout: 30_000 });
  // by their labels: the folded "More details" section holds further selects (currency, terms, owner)
  await pick(page, selects.filter({ has: page.getByRole('combobox', { name: 'Customer' }) }), 'C-', /C-/);
  await pick(page, selects.filter({ has: page.getByRole('combobox', { name: 'Product 1' }) }), article, new RegExp(article));
  await fill(page, 'line-quantity-0', '10');
  await fill(page, 'line-unit_price-0', '3');
  await fill(page, 'line-discount_percent-0', '0');
  await fill(page, 'line-vat_rate-0', '21');
  // 10 x 3.00 = 30.00 net, 6.30 VAT
  await expect(page.getByTestId('total-gross')).toContainText('36.30');
}

async function fill(page: Page, testId: string, value: string): Promise<void> {
  const input = page.getByTestId(testId).locator('input').first();
  const target = (await input.count()) ? input : page.getByTestId(testId);
  await target.fill(value);
}

test('an internal user orders, confirms, ships part with two cartons, invoices and opens the PDF', async ({ page, request, context }) => {
  test.setTimeout(240_000);
  const { article, codes } = await twoCartonsInStock(request);
  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'admin');

  await fillNewOrder(page, article);
  await page.getByTestId('save-confirm').click();

  await page.waitForURL(/\/sales\/orders\/\d+$/);
  await expect(page.getByTestId('sales-order-status')).toHaveText('Confirmed');
  await expect(page.getByTestId('status-why')).toContainText('reserved 10');

  await page.getByTestId('new-shipment').click();
  await fill(page, 'ship-qty-1', '4');
  await page.getByTestId('create-shipment').click();
  await page.getByRole('tab', { name: 'Shipments' }).click();
  await expect(page.getByTestId('shipment-number')).toBeVisible();

  await page.getByTestId('carton-codes').fill(codes.join(' '));
  await page.getByTestId('add-cartons').click();
  await expect(page.getByTestId('shipment-carton')).toHaveCount(2);

  await page.getByTestId('ship-shipment').click();
  await page.getByRole('button', { name: /^OK$/ }).click();
  await expect(page.getByTestId('shipment-status')).toHaveText('Shipped');
  await expect(page.getByTestId('sales-order-status')).toHaveText('Partially shipped');

  await page.getByTestId('invoice-shipment').click();
  await page.waitForURL(/\/sales\/invoices\/\d+$/);
  await expect(page.getByTestId('invoice-total-gross')).toContainText('14.52'); // 4 x 3.00 + 21 % VAT
  await page.getByTestId('post-invoice').click();
  await page.getByRole('button', { name: /^OK$/ }).click();
  await expect(page.getByText(/INV-\d{4}-\d{5}/).first()).toBeVisible();

  const popup = context.waitForEvent('page');
  await page.getByTestId('invoice-pdf').click();
  const pdfPage = await popup;
  expect(pdfPage.url()).toMatch(/^blob:/);

  // the e-invoice (UBL 2.1, Peppol BIS Billing 3.0), checked by the server before it is answered
  const download = page.waitForEvent('download');
  await page.getByTestId('invoice-ubl').click();
  expect((await download).suggestedFilename()).toMatch(/^INV-\d{4}-\d{5}\.xml$/);
});

/** The article number of an active product of tenant 3. */
async function anyProduct(request: APIRequestContext): Promise<string> {
  const token = await apiToken(request, 'admin');
  const answer = await request.get('/api/products/?tenant_id=3&is_active=true&page_size=1', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.ok()).toBeTruthy();
  const body = (await answer.json()) as { data: { results: { article_number: string }[] } };
  const article = body.data.results[0]?.article_number ?? '';
  expect(article).not.toBe('');
  return article;
}

test('an internal user edits a draft: a changed quantity changes the total, saved on the order page', async ({ page, request }) => {
  test.setTimeout(180_000);
  const article = await anyProduct(request);
  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'admin');

  await fillNewOrder(page, article);
  await page.getByTestId('save-draft').click();
  await page.waitForURL(/\/sales\/orders\/\d+$/);
  await expect(page.getByTestId('sales-order-status')).toHaveText('Draft');
  await expect(page.getByTestId('order-total-gross')).toContainText('36.30');
  const orderUrl = page.url();

  await page.getByTestId('edit-order').click();
  await page.waitForURL(/\/sales\/orders\/\d+\/edit$/);
  await expect(page.getByRole('spinbutton', { name: 'Quantity 1' })).toHaveValue('10');
  await expect(page.getByTestId('total-gross')).toContainText('36.30');
  await fill(page, 'line-quantity-0', '12');
  // 12 x 3.00 = 36.00 net + 7.56 VAT
  await expect(page.getByTestId('total-gross')).toContainText('43.56');
  await expect(page.getByTestId('line-amount-0')).toContainText('36.00');
  await page.getByTestId('save-order').click();

  await page.waitForURL(orderUrl);
  await expect(page.getByTestId('order-total-gross')).toContainText('43.56');
  await expect(page.getByTestId('status-why')).toContainText('Ordered 12');
  await expect(page.getByTestId('sales-order-status')).toHaveText('Draft');
});
