/**
 * Every route of the app (src/app/router.tsx) by the kind of user who opens it, with real demo ids for
 * the detail pages, read from the API as that user: what the axe walk (a11y.spec.ts) and the pictures
 * (pictures.spec.ts) visit.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, type DemoUser } from './helpers';

export const TENANT = '3';

export async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const sep = path.includes('?') ? '&' : '?';
  const answer = await request.get(`${path}${sep}tenant_id=${TENANT}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok(), `GET ${path}`).toBeTruthy();
  return ((await answer.json()) as { data: T }).data;
}

export async function token(request: APIRequestContext, username: DemoUser): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { access: string } }).data.access;
}

/** The first row of a list endpoint (the demo data has rows in every one used here). */
export async function first<T>(request: APIRequestContext, auth: string, path: string): Promise<T> {
  const data = await apiGet<{ results: T[] }>(request, auth, `${path}${path.includes('?') ? '&' : '?'}page_size=1`);
  const [row] = data.results;
  if (!row) throw new Error(`The demo data has no rows at ${path}`);
  return row;
}

/** The newest delivery that is not a draft. A draft's edit address opens the wizard at
 *  `new?draft=<id>` once the draft has loaded, so a walk that checks each address it opens cannot take
 *  it (the demo's newest delivery is a draft, which the route pictures show on purpose). */
export async function submittedDelivery(request: APIRequestContext, auth: string): Promise<string> {
  const data = await apiGet<{ results: { id: number; status: string }[] }>(request, auth, '/api/eudr/raw-materials/?page_size=100');
  const row = data.results.find((r) => r.status !== 'draft');
  if (!row) throw new Error('The demo data has no delivery that is not a draft');
  return String(row.id);
}

/** Real demo ids for the detail pages, read from the API as the user who visits them. */
export type Ids = Record<string, string>;

export async function internalIds(request: APIRequestContext): Promise<Ids> {
  const auth = await token(request, 'admin');
  type Id = { id: number };
  const [salesOrder, draftOrder, invoice, draftInvoice, delivery, product, supplier, order, receipt, company, rawMaterial, user, quotation, draftQuotation, supplierInvoice] = await Promise.all([
    first<Id>(request, auth, '/api/salesorders/orders/'),
    first<Id>(request, auth, '/api/salesorders/orders/?status=draft'),
    first<Id>(request, auth, '/api/salesorders/invoices/?status=posted'),
    first<Id>(request, auth, '/api/salesorders/invoices/?status=draft'),
    first<Id>(request, auth, '/api/salesorders/deliveries/'),
    first<Id>(request, auth, '/api/products/'),
    first<Id>(request, auth, '/api/suppliers/'),
    first<{ order_number: string }>(request, auth, '/api/purchaseorders/orders/'),
    first<Id>(request, auth, '/api/purchaseorders/receipts/'),
    first<{ name: string }>(request, auth, '/api/logistics/shipment-companies/'),
    first<Id>(request, auth, '/api/eudr/raw-materials/'),
    first<Id>(request, auth, '/api/users/'),
    first<Id>(request, auth, '/api/salesorders/quotations/?status=sent'),
    first<Id>(request, auth, '/api/salesorders/quotations/?status=draft'),
    first<Id>(request, auth, '/api/purchaseorders/supplier-invoices/'),
  ]);
  return {
    salesOrder: String(salesOrder.id),
    draftOrder: String(draftOrder.id),
    invoice: String(invoice.id),
    draftInvoice: String(draftInvoice.id),
    delivery: String(delivery.id),
    product: String(product.id),
    supplier: String(supplier.id),
    orderNumber: encodeURIComponent(order.order_number),
    receipt: String(receipt.id),
    companyName: encodeURIComponent(company.name),
    rawMaterial: String(rawMaterial.id),
    user: String(user.id),
    quotation: String(quotation.id),
    draftQuotation: String(draftQuotation.id),
    supplierInvoice: String(supplierInvoice.id),
  };
}

export async function supplierIds(request: APIRequestContext): Promise<Ids> {
  const auth = await token(request, 'supplier');
  const me = await apiGet<{ parent_vendor: number | { id: number } | null }>(request, auth, '/api/users/me/');
  const vendor = typeof me.parent_vendor === 'object' && me.parent_vendor ? me.parent_vendor.id : me.parent_vendor;
  if (vendor === null || vendor === undefined) throw new Error('The demo supplier has no parent vendor');
  const [rawMaterial, order] = await Promise.all([
    first<{ id: number }>(request, auth, '/api/eudr/raw-materials/'),
    first<{ order_number: string }>(request, auth, '/api/purchaseorders/orders/'),
  ]);
  return { parentVendorId: String(vendor), rawMaterial: String(rawMaterial.id), orderNumber: encodeURIComponent(order.order_number) };
}

export async function traceIds(request: APIRequestContext): Promise<Ids> {
  const auth = await token(request, 'admin');
  const label = await first<{ code: string }>(request, auth, '/api/eudr/cartons/?ordering=created_at');
  return { code: encodeURIComponent(label.code) };
}

/** Route patterns as in src/app/router.tsx; `:name` takes the demo id of that name. */
export const INTERNAL_ROUTES = [
  '/',
  '/sales/customer',
  '/sales/sales-order-detail',
  '/sales/shipment',
  '/sales/orders',
  '/sales/orders/:salesOrder',
  '/sales/orders/:draftOrder/edit',
  '/sales/quotations',
  '/sales/quotations/create',
  '/sales/quotations/:quotation',
  '/sales/quotations/:draftQuotation/edit',
  '/sales/invoices',
  '/sales/invoices/:invoice',
  '/sales/invoices/:draftInvoice',
  '/sales/deliveries',
  '/sales/deliveries/:delivery',
  '/warehouse/inventory',
  '/warehouse/shipments',
  '/warehouse/logistics',
  '/warehouse/deliveries',
  '/profile',
  '/settings/company',
  '/settings/accounting',
  '/settings/accounting/mappings',
  '/settings/accounting/sync-log',
  '/settings/accounting/callback',
  '/product',
  '/product/create',
  '/product/:product',
  '/product/:product/edit',
  '/product-group',
  '/purchase/suppliers',
  '/purchase/suppliers/:supplier',
  '/purchase/orders',
  '/purchase/orders/new',
  '/purchase/orders/:orderNumber',
  '/purchase/orders/:orderNumber/edit',
  '/purchase/receipts',
  '/purchase/receipts/:receipt',
  '/purchase/shipments',
  '/purchase/shipment-companies',
  '/purchase/shipment-companies/create',
  '/purchase/shipment-companies/:companyName',
  '/purchase/eudr/raw-materials',
  '/purchase/eudr/raw-materials/new',
  '/purchase/eudr/raw-materials/:rawMaterial',
  '/purchase/eudr/raw-materials/:rawMaterial/edit',
  '/purchase/eudr/supplier-policies',
  '/purchase/eudr/received-references',
  '/purchase/eudr/annual-report',
  '/purchase/eudr/forest-layers',
  '/purchase/supplier-invoices',
  '/purchase/supplier-invoices/:supplierInvoice',
  '/purchase/parent-vendors',
  '/customer',
  '/user',
  '/user/create',
  '/user/departments',
  '/user/permissions',
  '/user/:user',
  '/reports',
  '/reports/test',
  '/reports/import-export',
  '/core/email-scenarios',
  '/printer/devices',
  '/printer/demo',
  '/printer/integration',
  '/test/comments',
  '/test/layout',
  '/test/user-debug',
  '/test/printer',
  '/test/printer-start',
  '/no/such/page',
];

export const WAREHOUSE_ROUTES = ['/', '/warehouse/inventory', '/warehouse/shipments', '/warehouse/logistics', '/warehouse/deliveries', '/profile'];

const SUPPLIER_PORTAL = ['/raw-materials', '/raw-materials/new', '/raw-materials/:rawMaterial', '/raw-materials/:rawMaterial/edit', '/orders', '/orders/:orderNumber'];
export const SUPPLIER_ROUTES = [
  '/',
  '/profile',
  ...SUPPLIER_PORTAL.map((path) => `/supplier${path}`),
  ...SUPPLIER_PORTAL.map((path) => `/supplier/:parentVendorId${path}`),
];

export const SIGNED_OUT_ROUTES = ['/auth/login', '/eudrtrace/:code', '/eudrtrace/NO-SUCH-CARTON-CODE-0000'];

export function resolve(pattern: string, ids: Ids): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`No demo id for :${name}`);
    return id;
  });
}

/**
 * Waits until the page has drawn its content: its level-one heading (or the not-found page), and no
 * table, spinner, skeleton or trace still loading.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('h1, [data-testid="not-found"]') !== null &&
      document.querySelector('[data-testid="table-loading"], .p-spin-spinning, .p-skeleton-active, .trace-loading') === null,
    undefined,
    { timeout: 30_000 },
  );
}


/**
 * Opens `route` inside the running app (openInApp) and waits as `visit` does: the page settled, the stored
 * theme on <html>.
 */
export async function visitInApp(page: Page, route: string, theme: 'light' | 'dark'): Promise<void> {
  await openInApp(page, route);
  await settled(page);
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /p-dark/ : /^(?!.*p-dark)/);
}

/**
 * Opens `route` with a full page load and waits until it has settled; the app's pages carry the stored
 * theme on <html> (checked), the public trace page follows the emulated colour scheme.
 */
export async function visit(page: Page, route: string, theme: 'light' | 'dark'): Promise<void> {
  const answer = await page.goto(route);
  expect(answer?.ok() ?? true, `${route} answered ${answer?.status()}`).toBeTruthy();
  await settled(page);
  if (!route.startsWith('/eudrtrace/')) {
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /p-dark/ : /^(?!.*p-dark)/);
  }
}

/**
 * Opens a path inside the running app, as a click on a link does: React Router follows the history, the
 * document and what the app already holds stay (no new page load). Waits until the app has drawn that
 * location (<html data-location>, RootRoute.tsx: the address changes at once, the route is drawn once its
 * code has loaded); `{ drawn: false }` waits for the address only (offline, a route's code may never
 * load). A path without a query also matches the query a page then adds itself (the supplier's new
 * delivery page puts its draft in the address). The public trace page is a document of its own
 * (trace.html): open it with `page.goto`.
 */
export async function openInApp(page: Page, path: string, { drawn = true }: { drawn?: boolean } = {}): Promise<void> {
  const wanted = new URL(path, 'http://x');
  const escaped = `${wanted.pathname}${wanted.search}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const location = new RegExp(`^${escaped}${wanted.search ? '' : '(\\?.*)?'}$`);
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  await expect(page).toHaveURL((url) => location.test(`${url.pathname}${url.search}`));
  if (drawn) await expect(page.locator('html')).toHaveAttribute('data-location', location, { timeout: 30_000 });
}
