/**
 * axe-core over every route of the app (src/app/router.tsx), in the light and the dark theme: no page
 * may have a critical or serious violation. Each kind of user signs in once (one browser context per
 * kind), then visits its routes with full page loads; detail pages use real demo ids read from the API.
 * The public trace page follows the phone's colour scheme (prefers-color-scheme), the app the stored
 * theme: both are set for each theme.
 *
 * Exclusions (none is a disabled rule): none at present. Add one only with the reason next to it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { PASSWORD, signIn, type DemoUser } from './helpers';

type Theme = 'light' | 'dark';
const THEMES: Theme[] = ['light', 'dark'];
const TENANT = '3';

interface Found {
  route: string;
  theme: Theme;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}


async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const sep = path.includes('?') ? '&' : '?';
  const answer = await request.get(`${path}${sep}tenant_id=${TENANT}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok(), `GET ${path}`).toBeTruthy();
  return ((await answer.json()) as { data: T }).data;
}

async function token(request: APIRequestContext, username: DemoUser): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { access: string } }).data.access;
}

/** The first row of a list endpoint (the demo data has rows in every one used here). */
async function first<T>(request: APIRequestContext, auth: string, path: string): Promise<T> {
  const data = await apiGet<{ results: T[] }>(request, auth, `${path}${path.includes('?') ? '&' : '?'}page_size=1`);
  const [row] = data.results;
  if (!row) throw new Error(`The demo data has no rows at ${path}`);
  return row;
}

/** Real demo ids for the detail pages, read from the API as the user who visits them. */
type Ids = Record<string, string>;

async function internalIds(request: APIRequestContext): Promise<Ids> {
  const auth = await token(request, 'admin');
  type Id = { id: number };
  const [salesOrder, draftOrder, invoice, draftInvoice, delivery, product, supplier, order, receipt, company, rawMaterial, user] = await Promise.all([
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
  };
}

async function supplierIds(request: APIRequestContext): Promise<Ids> {
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

async function traceIds(request: APIRequestContext): Promise<Ids> {
  const auth = await token(request, 'admin');
  const label = await first<{ code: string }>(request, auth, '/api/eudr/cartons/?ordering=created_at');
  return { code: encodeURIComponent(label.code) };
}

/** Route patterns as in src/app/router.tsx; `:name` takes the demo id of that name. */
const INTERNAL_ROUTES = [
  '/',
  '/sales/customer',
  '/sales/sales-order-detail',
  '/sales/shipment',
  '/sales/orders',
  '/sales/orders/:salesOrder',
  '/sales/orders/:draftOrder/edit',
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

const WAREHOUSE_ROUTES = ['/', '/warehouse/inventory', '/warehouse/shipments', '/warehouse/logistics', '/warehouse/deliveries', '/profile'];

const SUPPLIER_PORTAL = ['/raw-materials', '/raw-materials/new', '/raw-materials/:rawMaterial', '/raw-materials/:rawMaterial/edit', '/orders', '/orders/:orderNumber'];
const SUPPLIER_ROUTES = [
  '/',
  '/profile',
  ...SUPPLIER_PORTAL.map((path) => `/supplier${path}`),
  ...SUPPLIER_PORTAL.map((path) => `/supplier/:parentVendorId${path}`),
];

const SIGNED_OUT_ROUTES = ['/auth/login', '/eudrtrace/:code', '/eudrtrace/NO-SUCH-CARTON-CODE-0000'];

function resolve(pattern: string, ids: Ids): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`No demo id for :${name}`);
    return id;
  });
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.addInitScript((tenant) => {
    if (!window.localStorage.getItem('tenant_id')) window.localStorage.setItem('tenant_id', tenant);
  }, TENANT);
  return context;
}

async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((dark) => {
    const stored = JSON.parse(window.localStorage.getItem('theme-config') ?? '{}') as Record<string, unknown>;
    window.localStorage.setItem('theme-config', JSON.stringify({ ...stored, dark }));
  }, theme === 'dark');
}

/**
 * Waits until the page has drawn its content: its level-one heading (or the not-found page), and no
 * table, spinner, skeleton or trace still loading.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('h1, [data-testid="not-found"]') !== null &&
      document.querySelector('[data-testid="table-loading"], .p-spin-spinning, .p-skeleton-active, .trace-loading') === null,
    undefined,
    { timeout: 30_000 },
  );
}

async function audit(page: Page, route: string, theme: Theme, found: Found[]): Promise<void> {
  const answer = await page.goto(route);
  expect(answer?.ok() ?? true, `${route} answered ${answer?.status()}`).toBeTruthy();
  await settled(page);
  // The app's pages carry the stored theme on <html>; the trace page follows the emulated colour scheme.
  if (!route.startsWith('/eudrtrace/')) {
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /p-dark/ : /^(?!.*p-dark)/);
  }
  const results = await new AxeBuilder({ page }).analyze();
  for (const violation of results.violations) {
    const impact = violation.impact ?? 'unknown';
    test.info().annotations.push({ type: `axe ${impact}`, description: `${violation.id} (${violation.nodes.length})` });
    if (impact === 'critical' || impact === 'serious') {
      found.push({
        route,
        theme,
        rule: violation.id,
        impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')}${node.failureSummary ? `\n        ${node.failureSummary.replace(/\n/g, '\n        ')}` : ''}`),
      });
    }
  }
}

function report(found: Found[]): string {
  return found
    .map((f) => `${f.theme} ${f.route}: [${f.impact}] ${f.rule}: ${f.help}\n      ${f.targets.join('\n      ')}`)
    .join('\n');
}

const KINDS: { user: DemoUser | null; title: string; routes: string[]; ids: (request: APIRequestContext) => Promise<Ids> }[] = [
  { user: 'admin', title: 'internal user (admin)', routes: INTERNAL_ROUTES, ids: internalIds },
  { user: 'warehouse', title: 'warehouse user', routes: WAREHOUSE_ROUTES, ids: () => Promise.resolve({}) },
  { user: 'supplier', title: 'supplier', routes: SUPPLIER_ROUTES, ids: supplierIds },
  { user: null, title: 'signed out (login, public trace page)', routes: SIGNED_OUT_ROUTES, ids: traceIds },
];

test.describe('axe: no critical or serious violation', () => {
  for (const kind of KINDS) {
    test.describe(kind.title, () => {
      // One context per kind of user, signed in once; every page is a full page load in it.
      let context: BrowserContext;
      let page: Page;
      let ids: Ids;

      test.beforeAll(async ({ browser, request }) => {
        ids = await kind.ids(request);
        context = await newContext(browser);
        page = await context.newPage();
        if (kind.user) await signIn(page, kind.user);
        else await page.goto('/auth/login');
      });

      test.afterAll(async () => {
        await context.close();
      });

      for (const theme of THEMES) {
        for (const pattern of kind.routes) {
          test(`${theme} ${pattern}`, async () => {
            await useTheme(page, theme);
            const found: Found[] = [];
            await audit(page, resolve(pattern, ids), theme, found);
            expect(found, `critical or serious axe violations:\n${report(found)}`).toEqual([]);
          });
        }
      }
    });
  }
});
