import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, shippableCartons, signIn } from './helpers';

/**
 * The warehouse on a phone (390 px): the warehouse user receives two cartons of the demo container by
 * typing their codes into the scan field (as a hardware scanner does) and posts them to stock, picks a
 * demo sales shipment by typing the codes of cartons on the shelves, ships it, and then the carton's
 * history and the move ledger show the shipment.
 */

const DEMO_CONTAINER = 'TGHU8912347';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

interface Page_<T> {
  data: { count: number; results: T[] };
}

async function api<T>(request: APIRequestContext, token: string, url: string): Promise<T> {
  const answer = await request.get(url, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok(), url).toBeTruthy();
  return ((await answer.json()) as { data: T }).data;
}

async function token(request: APIRequestContext, username: string): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { access: string } }).data.access;
}

/** Two cartons of the demo container that are not scanned in yet (a rerun takes the next two). */
async function twoCartonsToReceive(request: APIRequestContext, admin: string): Promise<{ shipment: number; codes: string[] }> {
  const inbound = await api<Page_<{ id: number; container_number: string }>['data']>(
    request,
    admin,
    `/api/inventory/inbound/?tenant_id=3&search=${DEMO_CONTAINER}`,
  );
  const shipment = inbound.results.find((s) => s.container_number === DEMO_CONTAINER);
  if (!shipment) throw new Error('The demo data has no container at the dock.');
  const labels = await api<Page_<{ code: string }>['data']>(
    request,
    admin,
    `/api/eudr/cartons/?tenant_id=3&container=${DEMO_CONTAINER}&page_size=200&ordering=code`,
  );
  const scanned = await api<Page_<{ code: string }>['data']>(
    request,
    admin,
    `/api/inventory/cartons/?tenant_id=3&inbound_shipment=${String(shipment.id)}&page_size=200`,
  );
  const done = new Set(scanned.results.map((c) => c.code));
  const codes = labels.results.map((l) => l.code).filter((code) => !done.has(code)).slice(0, 2);
  expect(codes).toHaveLength(2);
  return { shipment: shipment.id, codes };
}

interface ShipmentLine {
  id: number;
  product: number;
  product_number: string;
  quantity: string;
}

/** In-stock cartons of a product, those most surely allowed to leave first: a carton scanned in from a
 *  container ships only once a statement covers its placing, and other journeys receive cartons of
 *  containers not filed yet. Cartons of no container or of a container without uncovered cartons come
 *  first; the others follow, for a run in which every container has some. */
/** A demo shipment to pick whose every line can be picked in full from the cartons on the shelves, and
 *  those cartons' codes. */
async function shipmentToPick(
  request: APIRequestContext,
  admin: string,
): Promise<{ id: number; number: string; codes: string[]; article: string }> {
  const shipments = await api<Page_<{ id: number; shipment_number: string; cartons_count: number; total_qty: string }>['data']>(
    request,
    admin,
    '/api/salesorders/shipments/?tenant_id=3&status=draft&page_size=100&ordering=planned_date',
  );
  for (const candidate of shipments.results.filter((s) => s.cartons_count === 0).sort((a, b) => Number(a.total_qty) - Number(b.total_qty))) {
    const detail = await api<{ lines: ShipmentLine[] }>(request, admin, `/api/salesorders/shipments/${String(candidate.id)}/?tenant_id=3`);
    const codes: string[] = [];
    let complete = detail.lines.length > 0;
    for (const line of detail.lines) {
      const wanted = Number(line.quantity);
      const { cartons, sure } = await shippableCartons(request, admin, `product=${String(line.product)}`);
      const free = cartons.map((c) => c.code);
      // a random start among the surest cartons: a rerun, or another test, does not reach for the same ones
      const pool = sure >= wanted ? sure : free.length;
      const start = Math.floor(Math.random() * Math.max(1, pool - wanted));
      const take = free.slice(start, start + wanted);
      if (take.length < wanted) complete = false;
      codes.push(...take);
    }
    if (complete) return { id: candidate.id, number: candidate.shipment_number, codes, article: detail.lines[0]?.product_number ?? '' };
  }
  // A second run against the same server has picked the demo's shipments: plan one more of a confirmed
  // demo order (two units of a line whose product has cartons on the shelves), as the sales office does.
  const orders = await api<Page_<{ id: number }>['data']>(request, admin, '/api/salesorders/orders/?tenant_id=3&page_size=100');
  for (const order of orders.results) {
    const detail = await api<{ lines: { id: number; product: number; product_number: string; open_quantity: string }[] }>(
      request,
      admin,
      `/api/salesorders/orders/${String(order.id)}/?tenant_id=3`,
    );
    for (const line of detail.lines.filter((l) => Number(l.open_quantity) >= 2)) {
      const { cartons, sure } = await shippableCartons(request, admin, `product=${String(line.product)}`);
      const free = cartons.map((c) => c.code);
      if (free.length < 2) continue;
      const made = await request.post('/api/salesorders/shipments/?tenant_id=3', {
        headers: { Authorization: `Bearer ${admin}` },
        data: { sales_order: order.id, lines: [{ order_line: line.id, quantity: '2' }] },
      });
      if (!made.ok()) continue;
      const shipment = ((await made.json()) as { data: { id: number; shipment_number: string } }).data;
      const start = Math.floor(Math.random() * Math.max(1, (sure >= 2 ? sure : free.length) - 1));
      return { id: shipment.id, number: shipment.shipment_number, codes: free.slice(start, start + 2), article: line.product_number };
    }
  }
  throw new Error('The demo data has no shipment to pick whose cartons are in stock.');
}

async function scan(page: Page, code: string): Promise<void> {
  const field = page.getByTestId('scan-field');
  await field.fill(code);
  await field.press('Enter');
  await expect(page.getByTestId('scan-log').locator('[data-state="done"]').filter({ hasText: code })).toBeVisible();
}

test('the warehouse user receives, picks and ships on a phone, and the stock and the carton show it', async ({ page, request }) => {
  test.setTimeout(180_000);
  const admin = await token(request, 'admin');
  const receive = await twoCartonsToReceive(request, admin);
  const pick = await shipmentToPick(request, admin);

  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'warehouse');

  // 1. Receive two cartons of the container at the dock and post them to stock.
  await page.goto('/warehouse/shipments');
  await page.getByText(DEMO_CONTAINER).first().click();
  await expect(page).toHaveURL(new RegExp(`shipment=${String(receive.shipment)}`));
  const progress = page.getByTestId('inbound-progress');
  await expect(progress).toBeVisible();
  const before = Number(/^(\d+)/.exec((await progress.textContent()) ?? '')?.[1] ?? 'NaN');
  for (const code of receive.codes) await scan(page, code);
  await expect(progress).toContainText(`${String(before + 2)} of`);
  // A carton of a line already received by quantity completes that receipt at once (one receipt);
  // cartons beyond it wait to be posted.
  if (((await progress.textContent()) ?? '').includes('not yet posted')) {
    await page.getByTestId('post-receipts').click();
    await page.getByRole('button', { name: 'Post to stock' }).last().click();
    await expect(page.getByText(/^Posted: /)).toBeVisible();
  }
  await expect(progress).not.toContainText('not yet posted');

  // 2. Pick a demo shipment by typing its cartons' codes, then ship it.
  await page.goto('/warehouse/deliveries');
  await page.getByText(pick.number, { exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`shipment=${String(pick.id)}`));
  await expect(page.getByTestId('pick-status')).toHaveText('To pick');
  for (const code of pick.codes) await scan(page, code);
  await expect(page.getByTestId(`picked-${pick.article}`)).not.toHaveText('0');
  await page.getByTestId('ship').click();
  await page.getByRole('button', { name: 'Ship', exact: true }).last().click();
  await expect(page.getByTestId('pick-status')).toHaveText('Shipped');

  // 3. The carton's drawer: shipped, and its history received, picked and shipped with the shipment.
  const shipped = pick.codes[0] ?? '';
  await page.goto(`/warehouse/inventory?carton=${encodeURIComponent(shipped)}`);
  // the drawer: its title, then its body's heading, status and history
  await expect(page.getByText(`Carton ${shipped}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Warehouse history' })).toBeVisible();
  for (const step of ['Received', 'Posted to stock', 'Picked', 'Shipped']) {
    await expect(page.getByText(step, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText(new RegExp(`${pick.number} · `)).first()).toBeVisible();

  const received = receive.codes[0] ?? '';
  await page.goto(`/warehouse/inventory?carton=${encodeURIComponent(received)}`);
  await expect(page.getByText(`Carton ${received}`, { exact: true })).toBeVisible();
  await expect(page.getByText('Posted to stock', { exact: true })).toBeVisible();
  await expect(page.getByText('In stock', { exact: true })).toBeVisible();
  await expect(page.getByText(DEMO_CONTAINER, { exact: true })).toBeVisible();

  // 4. The stock: the move ledger holds the shipment's issue.
  await page.goto(`/warehouse/inventory?tab=moves&search=${encodeURIComponent(pick.number)}`);
  const issue = page.getByRole('row').filter({ hasText: pick.number }).filter({ hasText: 'Issue' });
  await expect(issue.first()).toBeVisible();
});
