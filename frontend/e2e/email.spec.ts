import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/** Screenshots for people to look at when SHOTS_DIR is set (not compared). */
const dir = process.env.SHOTS_DIR;

/** Picks an option of the open Ant Design select (prefix "p", see the theme). */
async function choose(page: Page, text: string): Promise<void> {
  await page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: text }).first().click();
}

async function inTenant(page: Page, tenantId: string): Promise<void> {
  await page.evaluate((id) => window.localStorage.setItem('tenant_id', id), tenantId);
}

test('an internal user creates a scenario, previews it on a real order, and sees the sent message in the log', async ({ page, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin');
  await inTenant(page, '3');
  await page.goto('/core/email-scenarios');
  await expect(page.getByRole('heading', { name: 'Email scenarios' })).toBeVisible({ timeout: 30_000 });

  // A scenario for "purchase order created", with a template written from the scenario form.
  await page.getByTestId('scenario-new').click();
  await page.getByTestId('scenario-name').fill(`Tell purchasing ${stamp}`);
  await page.getByTestId('scenario-event').click();
  await choose(page, 'Purchase order created');
  await page.getByTestId('scenario-new-template').click();
  await page.getByTestId('template-name').fill(`New order ${stamp}`);
  await page.getByTestId('template-subject-en').fill('New purchase order {{ order.number }} for {{ supplier.name }}');
  await page.getByTestId('template-body_html-en').fill('<p>Order <b>{{ order.number }}</b>: {{ order.total }} {{ order.currency }}</p>');
  await page.getByTestId('template-body_text-en').fill('Order {{ order.number }}: {{ order.total }} {{ order.currency }}');
  await page.getByTestId('template-save').click();
  await expect(page.getByTestId('template-name')).toHaveCount(0);
  // the recipient: a fixed address
  await page.getByLabel('Recipient kind').first().click();
  await choose(page, 'Fixed address');
  await page.getByTestId('scenario-address').fill('purchasing@eurotrade.example');
  await page.getByTestId('scenario-save').click();
  await expect(page.getByText(`Scenario Tell purchasing ${stamp}`)).toBeVisible();

  // Preview on the latest real purchase order of the company.
  await page.getByTestId('preview-run').click();
  await expect(page.getByTestId('preview-subject')).toContainText('New purchase order PO-');
  if (dir) await page.screenshot({ path: `${dir}/email-scenario-preview.png`, fullPage: true });
  await page.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('cell', { name: `Tell purchasing ${stamp}` })).toBeVisible();

  // The event: a purchase order is created (through the API, as any client would).
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  const token = ((await login.json()) as { data: { access: string } }).data.access;
  const headers = { Authorization: `Bearer ${token}` };
  const suppliers = (await (await request.get('/api/suppliers/?tenant_id=3&page_size=1', { headers })).json()) as {
    data: { results: { id: number }[] };
  };
  const products = (await (await request.get('/api/products/?tenant_id=3&page_size=1', { headers })).json()) as {
    data: { results: { id: number }[] };
  };
  const created = await request.post('/api/purchaseorders/orders/?tenant_id=3', {
    headers,
    data: {
      supplier: suppliers.data.results[0]?.id,
      order_date: '2026-03-02',
      currency: 'EUR',
      lines: [{ product: products.data.results[0]?.id, order_qty: '10', unit_cost: '2.50' }],
    },
  });
  expect(created.status()).toBe(201);
  const order = ((await created.json()) as { data: { order_number: string } }).data;

  // The log shows the message, sent to the local outbox, with the exact body.
  await page.getByRole('tab', { name: 'Log' }).click();
  const row = page.getByRole('row', { name: new RegExp(`Tell purchasing ${stamp}.*New purchase order ${order.order_number}`) });
  await expect(row).toBeVisible();
  await expect(row.getByText('Sent')).toBeVisible();
  await row.click();
  await expect(page.getByTestId('message-detail')).toBeVisible();
  await expect(page.getByText('purchasing@eurotrade.example').last()).toBeVisible();
  await expect(page.getByText('Local outbox')).toBeVisible();
  await page.getByRole('tab', { name: 'Plain text' }).click();
  await expect(page.getByTestId('mail-text')).toHaveText(`Order ${order.order_number}: 25.00 EUR`);
  if (dir) await page.screenshot({ path: `${dir}/email-log-message.png`, fullPage: true });
});
