import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { ARTICLE, TENANT, call, orderAndLabel, token, type Envelope, type Goods, type Page_ } from './goods';
import { signIn } from './helpers';
import { PHONE, axeClean, fitsThePhone } from './phone';

/**
 * One flow of goods on a phone (390 x 844), across purchasing, the warehouse, sales and EUDR:
 *
 * the office orders three labelled cartons and the carton factory labels them for a container (both
 * through the API, as their own screens are walked elsewhere); on the phone the warehouse receives the
 * container by scanning the three cartons, posts them to stock and puts one away; the office sells one
 * carton and makes its shipment; the warehouse picks it location first and ships it; the office invoices
 * the shipment; and the carton's public trace page shows each step.
 *
 * The refusals, where the areas meet: scanning a received carton again, receiving the order line by
 * quantity once its cartons were scanned, shipping a labelled line with nothing picked, and voiding the
 * label of a carton that has shipped. After each, the counts still agree.
 */

/** A storage location of the demo warehouse RTM (the receiving dock is RECV). */
const SHELF = 'B-01';

/** The office orders 3 cartons; the factory labels them for a container on its way (e2e/goods.ts). */
async function orderAndLabelThree(request: APIRequestContext): Promise<Goods> {
  const admin = await token(request, 'admin');
  // A labelled line ships only its picked cartons (another journey may have allowed unlabelled shipping).
  // The container's statement is filed in its own journey (placing-statement.spec.ts): here the company
  // allows shipping imported cartons before it is available, and the delivery note says so per carton.
  await call(request, admin, 'PATCH', '/api/tenants/current/', { allow_unlabelled_shipping: false, allow_uncovered_shipping: true });
  return orderAndLabel(request, 3, 'Phone flow of goods');
}

/** A signed-in phone (touch, 390 px) of one user, in the trading company. */
async function phoneOf(browser: Browser, username: 'admin' | 'warehouse'): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-US' });
  const page = await context.newPage();
  await page.addInitScript((tenant) => window.localStorage.setItem('tenant_id', tenant), String(TENANT));
  await signIn(page, username);
  return page;
}

/** Types a code into the scan field as a hardware scanner does, and waits for the scan log's answer. */
async function scan(page: Page, code: string, state: 'done' | 'refused' = 'done'): Promise<Locator> {
  const field = page.getByTestId('scan-field');
  await field.fill(code);
  await field.press('Enter');
  const entry = page.getByTestId('scan-log').locator(`[data-state="${state}"]`).filter({ hasText: code }).first();
  await expect(entry).toBeVisible();
  return entry;
}

async function step(page: Page, name: string): Promise<void> {
  await fitsThePhone(page, name);
  await axeClean(page, name);
  const shots = process.env.SHOTS_DIR;
  if (shots) await page.screenshot({ path: `${shots}/flow-phone-${name}.png`, fullPage: true });
}

async function pick(page: Page, field: Locator, search: string, option: RegExp): Promise<void> {
  await expect(async () => {
    await field.click();
    await page.keyboard.type(search);
    const choice = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: option }).first();
    await expect(choice).toBeVisible({ timeout: 5000 });
    await choice.hover();
    await page.keyboard.press('Enter');
    await expect(field).toContainText(option, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

async function fill(page: Page, testId: string, value: string): Promise<void> {
  const input = page.getByTestId(testId).locator('input').first();
  await ((await input.count()) ? input : page.getByTestId(testId)).fill(value);
}

async function confirmBubble(page: Page, name: RegExp = /^OK$/): Promise<void> {
  await page.locator('.p-popover:visible, .p-popconfirm:visible').getByRole('button', { name }).click();
}

test('one flow of goods on a phone: ordered, labelled, received by scan, put away, sold, picked by location, shipped, invoiced and traced', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const setup = await orderAndLabelThree(request);
  const [carton, ...others] = setup.labels.map((l) => l.code);
  if (!carton) throw new Error('no carton');
  const admin = await token(request, 'admin');

  // 1. The warehouse receives the container by scanning its three cartons, then posts them to stock.
  const warehouse = await phoneOf(browser, 'warehouse');
  await warehouse.goto('/warehouse/shipments');
  await warehouse.getByPlaceholder('Container or order').fill(setup.container);
  await warehouse.getByPlaceholder('Container or order').press('Enter');
  await warehouse.getByText(setup.container).first().click();
  const progress = warehouse.getByTestId('inbound-progress');
  await expect(progress).toContainText('0 of 3');
  await step(warehouse, '1-container');
  for (const code of [carton, ...others]) await scan(warehouse, code);
  await expect(progress).toContainText('3 of 3');
  await expect(progress).toContainText('3 not yet posted');
  await step(warehouse, '2-scanned');
  await warehouse.getByTestId('post-receipts').click();
  await confirmBubble(warehouse, /Post to stock/);
  await expect(warehouse.getByText(/^Posted: /)).toBeVisible();
  await expect(progress).not.toContainText('not yet posted');

  // Refused: the same carton scanned again, and the line received a second time by quantity.
  const again = await scan(warehouse, carton, 'refused');
  await expect(again).toContainText(/already received/i);
  const byQuantity = await request.post(`/api/purchaseorders/orders/${String(setup.order.id)}/receipts/?tenant_id=${String(TENANT)}`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { lines: [{ order_line: setup.order.line, quantity: '1' }] },
  });
  expect(byQuantity.status(), await byQuantity.text()).toBeGreaterThanOrEqual(400);
  expect(byQuantity.status()).toBeLessThan(500);
  const received = await call<{ received_qty: string; status: string }>(request, admin, 'GET', `/api/purchaseorders/orders/${String(setup.order.id)}/`);
  expect(Number(received.received_qty)).toBe(3); // one receipt: the scans, not 3 + 3
  expect(received.status).toBe('received'); // every line received in full: derived from the scans' receipt

  // 2. One carton is put away on a shelf: the shelf's code first, then the carton's.
  await warehouse.goto('/warehouse/shipments?mode=putaway');
  const shelfField = warehouse.getByTestId('location-field');
  await shelfField.fill(SHELF);
  await shelfField.press('Enter');
  await expect(warehouse.getByTestId('putaway-location')).toContainText(`RTM/${SHELF}`);
  await scan(warehouse, carton);
  await step(warehouse, '3-put-away');

  // 3. The office sells one carton and plans its shipment from the order page.
  const office = await phoneOf(browser, 'admin');
  await office.goto('/sales/sales-order-detail');
  const selects = office.locator('.p-card .p-select');
  await expect(selects.first()).toBeVisible({ timeout: 30_000 });
  await pick(office, selects.filter({ has: office.getByRole('combobox', { name: 'Customer' }) }), 'C-', /C-/);
  await pick(office, selects.filter({ has: office.getByRole('combobox', { name: 'Product 1' }) }), ARTICLE, new RegExp(ARTICLE));
  await fill(office, 'line-quantity-0', '1');
  await fill(office, 'line-unit_price-0', '3');
  await fill(office, 'line-discount_percent-0', '0');
  await fill(office, 'line-vat_rate-0', '21');
  await office.getByTestId('save-confirm').click();
  await office.waitForURL(/\/sales\/orders\/\d+$/);
  const orderUrl = office.url();
  await office.getByTestId('new-shipment').click();
  await expect(office.getByRole('dialog')).toBeVisible();
  await fill(office, 'ship-qty-1', '1');
  await office.getByTestId('create-shipment').click();
  await expect(office.getByRole('dialog')).toBeHidden();
  await office.getByRole('tab', { name: 'Shipments' }).click();
  const shipmentNumber = (await office.getByTestId('shipment-number').first().textContent())?.trim() ?? '';
  expect(shipmentNumber).toMatch(/^SH-/);

  // Refused: shipping the labelled line with nothing picked.
  await office.getByTestId('ship-shipment').click();
  await confirmBubble(office);
  await expect(office.getByText(`${ARTICLE}: 0 of 1 cartons are picked`, { exact: false }).first()).toBeVisible();
  await expect(office.getByTestId('shipment-status')).not.toHaveText('Shipped');
  await step(office, '4-ship-refused');

  // 4. The warehouse picks location first: the pick list says where, the shelf's code narrows it, the
  //    carton's code picks it; then the shipment ships.
  await warehouse.goto('/warehouse/deliveries');
  await warehouse.getByText(shipmentNumber, { exact: true }).first().click();
  await expect(warehouse.getByTestId('pick-status')).toHaveText('To pick');
  await expect(warehouse.getByTestId(`where-${ARTICLE}`)).toContainText(SHELF);
  await step(warehouse, '5-pick-list');
  const shelfScan = warehouse.getByTestId('scan-field');
  await shelfScan.fill(SHELF);
  await shelfScan.press('Enter');
  await expect(warehouse.getByTestId(`where-${ARTICLE}`).locator('.p-tag-blue')).toContainText(SHELF);
  await scan(warehouse, carton);
  // That was the last carton of the shipment on the shelf: the shelf is done and the whole list shows.
  await expect(warehouse.getByText(`Everything at ${SHELF} is picked.`)).toBeVisible();
  await expect(warehouse.getByTestId(`picked-${ARTICLE}`)).toHaveText('1');
  await warehouse.getByTestId('ship').click();
  await warehouse.getByRole('button', { name: 'Ship', exact: true }).last().click();
  await expect(warehouse.getByTestId('pick-status')).toHaveText('Shipped');
  await step(warehouse, '6-shipped');

  // 5. The office invoices the shipment and posts the invoice.
  await office.goto(orderUrl);
  await office.getByRole('tab', { name: 'Shipments' }).click();
  await expect(office.getByTestId('shipment-status')).toHaveText('Shipped');
  await office.getByTestId('invoice-shipment').click();
  await office.waitForURL(/\/sales\/invoices\/\d+$/);
  await expect(office.getByTestId('invoice-total-gross')).toContainText('3.63'); // 1 x 3.00 + 21 % VAT
  await office.getByTestId('post-invoice').click();
  await confirmBubble(office);
  await expect(office.getByText(/INV-\d{4}-\d{5}/).first()).toBeVisible();
  await step(office, '7-invoice');

  // Refused: voiding the label of the shipped (and invoiced) carton. The labels table does not let it
  // be selected, and the server refuses it with the reason.
  const shippedLabel = setup.labels.find((l) => l.code === carton);
  await office.goto(`/purchase/eudr/raw-materials/${String(setup.delivery)}`);
  const labelSearch = office.getByPlaceholder('Code, article, batch, container');
  await labelSearch.fill(carton);
  await labelSearch.press('Enter');
  const box = office.getByRole('checkbox', { name: new RegExp(carton) });
  await expect(box).toBeVisible();
  await expect(box).toBeDisabled();
  const voided = await request.post(`/api/eudr/cartons/bulk-delete/?tenant_id=${String(TENANT)}`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { ids: [shippedLabel?.id], reason: 'Printed twice' },
  });
  expect(voided.status()).toBe(409);
  expect(((await voided.json()) as Envelope<unknown>).error).toBe('carton_not_voidable');

  // 6. Anyone who scans the carton's QR code sees its way: received, posted to stock, put away, shipped.
  const visitor = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-US' });
  const trace = await visitor.newPage();
  await trace.goto(`/eudrtrace/${carton}`);
  await expect(trace.getByTestId('trace-code')).toHaveText(carton);
  const kinds = trace.getByTestId('trace-warehouse-step');
  await expect(kinds.first()).toBeVisible();
  const seen = await kinds.evaluateAll((steps) => steps.map((s) => s.getAttribute('data-kind')));
  expect(seen).toEqual(expect.arrayContaining(['received', 'stocked', 'put_away', 'shipped']));
  await step(trace, '8-trace');
  await visitor.close();

  // After all of it the counts agree: the carton shipped, the other two in stock, the line received 3.
  const cartons = await call<Page_<{ code: string; status: string }>>(request, admin, 'GET', `/api/inventory/cartons/?inbound_shipment=${String(setup.shipment)}&page_size=10`);
  const states = new Map(cartons.results.map((c) => [c.code, c.status]));
  expect(states.get(carton)).toBe('shipped');
  for (const code of others) expect(states.get(code)).toBe('in_stock');
});
