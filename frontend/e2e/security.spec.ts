import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/**
 * The headers of every answer (docs/operations.md, "Security headers"): the web app, Swagger UI and the
 * public trace page work under the Content-Security-Policy without a single violation, and the server
 * sends the policy, the Permissions-Policy and no-store on personal answers.
 */

function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  // Chromium reports every violation of the policy on the console ("Refused to ... because it violates
  // the following Content Security Policy directive"). (Other console errors are not this test's: the
  // e2e configuration blocks service workers, which the app reports on the console.)
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  return problems;
}

async function demoCartonCode(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  expect(login.headers()['cache-control']).toBe('no-store');
  const token = ((await login.json()) as { data: { access: string } }).data.access;
  const cartons = await request.get('/api/eudr/cartons/?tenant_id=3&page_size=1&ordering=created_at', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const [label] = ((await cartons.json()) as { data: { results: { code: string }[] } }).data.results;
  if (!label) throw new Error('The demo data has no carton labels.');
  return label.code;
}

test('the web app, Swagger UI and the trace page run under the Content-Security-Policy', async ({ page, request }) => {
  test.setTimeout(300_000);
  const problems = collectProblems(page);
  const first = await page.goto('/auth/login');
  const headers = first?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['permissions-policy']).toContain('camera=(self)'); // the warehouse's camera scanner only
  expect(headers['permissions-policy']).toContain('microphone=()');
  expect(headers['x-frame-options']).toBe('DENY');

  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'admin');
  for (const path of ['/', '/purchase/orders', '/purchase/eudr/raw-materials', '/user', '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
  }
  const me = await page.request.get('/api/users/me/');
  expect(me.headers()['cache-control']).toBe('no-store');

  await page.goto('/api/docs/');
  // Swagger UI fetches the whole schema first (generated on request: slow on a busy machine).
  await expect(page.locator('.swagger-ui .info .title')).toContainText('CartonTrace API', { timeout: 90_000 });
  await expect(page.locator('.opblock').first()).toBeVisible();

  const code = await demoCartonCode(request);
  await page.goto(`/eudrtrace/${code}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });

  expect(problems).toEqual([]);
});

test('a supplier who types an internal address gets the forbidden page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'supplier');
  await page.goto('/purchase/orders');
  await expect(page.getByTestId('layout-supplier')).toBeVisible();
  await expect(page.getByTestId('forbidden')).toBeVisible({ timeout: 30_000 });
  // Their own pages open as before.
  await page.goto('/supplier/orders');
  await expect(page.getByTestId('forbidden')).toHaveCount(0);
  await expect(page.getByTestId('supplier-menu-orders')).toBeVisible({ timeout: 30_000 });
});
