import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/**
 * The headers of every answer (docs/operations.md, "Security headers"): the web app, Swagger UI and the
 * public trace page work under the Content-Security-Policy without a single violation, and the server
 * sends the policy, the Permissions-Policy and no-store on personal answers.
 */

function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`${page.url()}: ${message.text()}`);
    }
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
  const problems = collectProblems(page);
  const first = await page.goto('/auth/login');
  const headers = first?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['x-frame-options']).toBe('DENY');

  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'admin');
  for (const path of ['/', '/purchase/orders', '/purchase/eudr/raw-materials', '/user', '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
  }
  const me = await page.request.get('/api/users/me/');
  expect(me.headers()['cache-control']).toBe('no-store');

  await page.goto('/api/docs/');
  await expect(page.locator('.swagger-ui .info .title')).toContainText('CartonTrace API');
  await expect(page.locator('.opblock').first()).toBeVisible();

  const code = await demoCartonCode(request);
  await page.goto(`/eudrtrace/${code}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  expect(problems).toEqual([]);
});

test('a supplier who types an internal address gets the forbidden page', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'supplier');
  await page.goto('/purchase/orders');
  await expect(page.getByTestId('layout-supplier')).toBeVisible();
  await expect(page.getByTestId('forbidden')).toBeVisible();
  // Their own pages open as before.
  await page.goto('/supplier/orders');
  await expect(page.getByTestId('forbidden')).toHaveCount(0);
  await expect(page.getByTestId('supplier-menu-orders')).toBeVisible();
});
