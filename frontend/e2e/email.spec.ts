/**
 * E-mail scenarios end to end: an internal user creates a scenario for "invoice posted" (with a template
 * written from the scenario form and the invoice PDF attached), previews it on a demo invoice, posts an
 * invoice and sees the message in the log, sent to the local outbox of the e2e server (no EMAIL_HOST:
 * scripts/e2e-server.sh runs the embedded default, Celery tasks inline).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/** Screenshots for people to look at when SHOTS_DIR is set (not compared). */
const dir = process.env.SHOTS_DIR;

/** Picks an option of the open select (component prefix "p", see the theme). */
async function choose(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: text }).first().click();
}

interface Invoice {
  id: number;
  number: string;
  status: string;
  customer: number;
  customer_name: string;
}
interface List<T> {
  results: T[];
}

async function api(request: APIRequestContext) {
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const token = ((await login.json()) as { data: { access: string } }).data.access;
  const headers = { Authorization: `Bearer ${token}` };
  return {
    get: async <T>(path: string): Promise<T> => {
      const response = await request.get(`${path}${path.includes('?') ? '&' : '?'}tenant_id=3`, { headers });
      expect(response.ok(), path).toBeTruthy();
      return ((await response.json()) as { data: T }).data;
    },
    post: (path: string, data: unknown) => request.post(`${path}?tenant_id=3`, { headers, data }),
  };
}

/** A draft invoice of the demo company: the demo's, else one made now (as the "Invoice" button of a
 * shipment does) for a shipped order not yet invoiced, else for a confirmed demo order shipped now (so
 * that the test also runs again against a server it has already used, E2E_BASE_URL). */
async function draftInvoice(client: Awaited<ReturnType<typeof api>>): Promise<Invoice> {
  const drafts = await client.get<List<Invoice>>('/api/salesorders/invoices/?status=draft&kind=invoice&page_size=1');
  if (drafts.results[0]) return drafts.results[0];
  const invoice = async (orderId: number): Promise<Invoice | null> => {
    const made = await client.post('/api/salesorders/invoices/', { sales_order: orderId });
    return made.ok() ? ((await made.json()) as { data: Invoice }).data : null;
  };
  const shipped = await client.get<List<{ id: number }>>('/api/salesorders/orders/?status=shipped,partially_shipped&page_size=50');
  for (const order of shipped.results) {
    const made = await invoice(order.id);
    if (made) return made;
  }
  const confirmed = await client.get<List<{ id: number }>>('/api/salesorders/orders/?status=confirmed&page_size=50');
  for (const { id } of confirmed.results) {
    const order = await client.get<{ lines: { id: number; open_quantity: string }[] }>(`/api/salesorders/orders/${id}/`);
    const lines = order.lines.filter((l) => Number(l.open_quantity) > 0).map((l) => ({ order_line: l.id, quantity: l.open_quantity }));
    const shipment = await client.post('/api/salesorders/shipments/', { sales_order: id, lines });
    if (!shipment.ok()) continue;
    const shipmentId = ((await shipment.json()) as { data: { id: number } }).data.id;
    if (!(await client.post(`/api/salesorders/shipments/${shipmentId}/ship/`, {})).ok()) continue;
    const made = await invoice(id);
    if (made) return made;
  }
  throw new Error('the demo has no order left to invoice');
}

test('an internal user creates a scenario for "invoice posted", previews it on a demo invoice, posts an invoice and sees the message in the log', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const client = await api(request);
  const draft = await draftInvoice(client);
  expect(draft.status).toBe('draft');
  const customer = await client.get<{ email: string }>(`/api/customers/${draft.customer}/`);
  expect(customer.email).toMatch(/@/);
  const posted = await client.get<List<Invoice>>('/api/salesorders/invoices/?status=posted&kind=invoice&page_size=1');
  const demoInvoice = posted.results[0];
  expect(demoInvoice?.number).toMatch(/^INV-/);

  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'admin');
  await page.goto('/core/email-scenarios');
  await expect(page.getByRole('heading', { name: 'Email scenarios' })).toBeVisible({ timeout: 30_000 });

  // The scenario: "invoice posted", to the customer, the invoice PDF attached, with a new template.
  await page.getByTestId('scenario-new').click();
  await page.getByTestId('scenario-name').fill(`Invoice to customer ${stamp}`);
  await page.getByTestId('scenario-event').click();
  await page.keyboard.type('Invoice posted'); // the list is long: search it
  await choose(page, /^Invoice posted$/);
  await page.getByTestId('scenario-new-template').click();
  await page.getByTestId('template-name').fill(`Invoice ${stamp}`);
  await page.getByTestId('template-subject-en').fill('Invoice {{ invoice.number }} for {{ customer.name }}');
  await page.getByTestId('template-body_html-en').fill('<p>Invoice <b>{{ invoice.number }}</b>: {{ invoice.total_gross }} {{ invoice.currency }}, due {{ invoice.due_date }}</p>');
  await page.getByTestId('template-body_text-en').fill('Invoice {{ invoice.number }}: {{ invoice.total_gross }} {{ invoice.currency }}');
  await page.getByRole('tab', { name: '中文' }).click();
  await page.getByTestId('template-subject-zh').fill('发票 {{ invoice.number }}');
  await page.getByTestId('template-save').click();
  await expect(page.getByTestId('template-name')).toHaveCount(0);
  await page.getByTestId('scenario-contact').click();
  await choose(page, 'The customer');
  await page.getByLabel('Invoice (PDF)').check();
  await page.getByTestId('scenario-save').click();
  await expect(page.getByText(`Scenario Invoice to customer ${stamp}`)).toBeVisible();

  // Preview on a demo invoice, picked by its number: the subject, the recipient, the Chinese subject.
  await page.getByTestId('preview-record').click();
  await page.keyboard.type(demoInvoice.number);
  await choose(page, demoInvoice.number);
  await page.getByTestId('preview-run').click();
  await expect(page.getByTestId('preview-subject')).toHaveText(new RegExp(`^Invoice ${demoInvoice.number} for .+`));
  await expect(page.getByTestId('preview-panel')).toContainText('Conditions hold: this record would be mailed');
  await page.getByTestId('preview-panel').getByText('中文').click();
  await page.getByTestId('preview-run').click();
  await expect(page.getByTestId('preview-subject')).toHaveText(`发票 ${demoInvoice.number}`);
  if (dir) await page.screenshot({ path: `${dir}/email-scenario-preview.png`, fullPage: true });
  await page.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('cell', { name: `Invoice to customer ${stamp}` })).toBeVisible();

  // The event: the draft invoice is posted on its page.
  await page.goto(`/sales/invoices/${draft.id}`);
  await page.getByTestId('post-invoice').click();
  await page.getByRole('button', { name: /^OK$/ }).click();
  const numberText = page.getByText(/INV-\d{4}-\d{5}/).first();
  await expect(numberText).toBeVisible();
  const number = (await client.get<Invoice>(`/api/salesorders/invoices/${draft.id}/`)).number;
  expect(number).toMatch(/^INV-/);

  // The log shows the message, sent to the local outbox, with its body and the invoice PDF.
  await page.goto('/core/email-scenarios');
  await page.getByRole('tab', { name: 'Log' }).click();
  const row = page.getByRole('row', { name: new RegExp(`Invoice to customer ${stamp}.*Invoice ${number} for ${draft.customer_name}`) });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('Sent')).toBeVisible();
  await expect(row).toContainText(customer.email);
  await row.click();
  const detail = page.getByTestId('message-detail');
  await expect(detail).toBeVisible();
  await expect(detail).toContainText('Local outbox');
  await expect(detail).toContainText(`${number}.pdf`);
  // the HTML body opens in the browser (a sandboxed frame), the text body as sent
  await expect(page.frameLocator('[data-testid="mail-html"]').locator('b')).toHaveText(number);
  await page.getByRole('tab', { name: 'Plain text' }).click();
  await expect(page.getByTestId('mail-text')).toHaveText(new RegExp(`^Invoice ${number}: \\d+\\.\\d{2} [A-Z]{3}$`));
  if (dir) await page.screenshot({ path: `${dir}/email-log-message.png`, fullPage: true });
});

test('a supplier follows the link of a purchase order mail into the supplier portal, not to the forbidden page', async ({ page, request }) => {
  test.setTimeout(120_000);
  const client = await api(request);
  // the demo's "new purchase order" mail to the parent vendor's portal users
  const log = await client.get<List<{ id: number; to: string[] }>>('/api/core/email-log/?event=purchase_order.sent&page_size=50');
  const mail = log.results.find((m) => m.to.some((to) => /supplier2?@factory\.example/.test(to)));
  expect(mail, 'a purchase order mail to a supplier user').toBeDefined();
  const user = mail!.to.join(',').includes('supplier2@') ? 'supplier2' : 'supplier';
  const detail = await client.get<{ body_text: string; body_html: string; record_url: string }>(`/api/core/email-log/${mail!.id}/`);
  const link = /\/supplier\/orders\/(PO-[\w-]+)/.exec(detail.body_text);
  expect(link, detail.body_text).not.toBeNull();
  const [path, number] = [link![0], link![1]];
  expect(detail.body_html).toContain(`href="${path}"`);
  expect(detail.record_url).toBe(`/purchase/orders/${number}`); // the log itself links to the internal page

  await signIn(page, user);
  await page.goto(path);
  await expect(page.getByTestId('layout-supplier')).toBeVisible();
  await expect(page.getByTestId('order-lines')).toBeVisible();
  await expect(page.getByText(number).first()).toBeVisible();
  await expect(page.getByTestId('forbidden')).toHaveCount(0);
  // what the link used to be: the internal page, which is forbidden to them
  await page.goto(`/purchase/orders/${number}`);
  await expect(page.getByTestId('forbidden')).toBeVisible();
});
