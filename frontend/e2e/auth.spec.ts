import { expect, test } from '@playwright/test';
import { resignJwt, signIn, storage, userMenu, type DemoUser } from './helpers';

const LANDINGS: { user: DemoUser; layout: string; tenant: string | null }[] = [
  { user: 'admin', layout: 'layout-default', tenant: null },
  { user: 'sales', layout: 'layout-default', tenant: '2' },
  { user: 'warehouse', layout: 'layout-warehouse', tenant: '3' },
  { user: 'supplier', layout: 'layout-supplier', tenant: '3' },
  { user: 'supplier2', layout: 'layout-supplier', tenant: '3' },
];

for (const { user, layout, tenant } of LANDINGS) {
  test(`${user} signs in and lands in the ${layout.replace('layout-', '')} layout`, async ({ page }) => {
    await signIn(page, user);
    await expect(page.getByTestId(layout)).toBeVisible();
    expect(await storage(page, 'accessToken')).toBeTruthy();
    expect(await storage(page, 'refreshToken')).toBeTruthy();
    expect(await storage(page, 'username')).toBe(user);
    const info = JSON.parse((await storage(page, 'userInfo')) ?? 'null') as { username: string } | null;
    expect(info?.username).toBe(user);
    const tenantId = await storage(page, 'tenant_id');
    if (tenant) expect(tenantId).toBe(tenant);
    else expect(tenantId).toBeTruthy();
    // The home dashboard answers for every kind of user.
    await expect(page.getByTestId('home-shortcuts')).toBeVisible();
  });
}

test('the two suppliers see their own parent vendor', async ({ browser }) => {
  const names: string[] = [];
  for (const user of ['supplier', 'supplier2'] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user);
    await expect(page.getByTestId('layout-supplier')).toBeVisible();
    await expect(page.getByTestId('supplier-menu-orders')).toBeVisible();
    const info = JSON.parse((await storage(page, 'userInfo')) ?? '{}') as { parent_vendor?: { id: number } | number | null };
    const pv = info.parent_vendor;
    names.push(String(typeof pv === 'object' && pv ? pv.id : pv));
    await context.close();
  }
  expect(names[0]).not.toBe(names[1]);
});

test('a wrong password shows the server message and stays on the login page', async ({ page }) => {
  await page.goto('/auth/login');
  await page.locator('input#username').fill('admin');
  await page.locator('input#password').fill('wrong-password');
  await page.locator('form[data-testid="login-form"] button[type="submit"]').click();
  await expect(page.getByTestId('login-error')).toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('a protected route sends to the login page and back after sign-in', async ({ page }) => {
  await page.goto('/purchase/orders?page=1');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fpurchase%2Forders%3Fpage%3D1$/);
  await page.locator('input#username').fill('admin');
  await page.locator('input#password').fill('demo1234');
  await page.locator('form[data-testid="login-form"] button[type="submit"]').click();
  await expect(page).toHaveURL(/\/purchase\/orders\?page=1$/);
  await expect(page.getByTestId('layout-default')).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found')).toBeVisible();
});

test('sign-out revokes the session, clears storage and goes to the login page', async ({ page, request }) => {
  await signIn(page, 'admin');
  const refresh = await storage(page, 'refreshToken');
  const access = await storage(page, 'accessToken');
  await userMenu(page, 'Sign Out');
  await expect(page).toHaveURL(/\/auth\/login$/);
  for (const key of ['accessToken', 'refreshToken', 'userInfo', 'tenant_id']) {
    expect(await storage(page, key), key).toBeNull();
  }
  // "Remember me" (on by default) keeps the username for the login form, never the tokens.
  expect(await storage(page, 'username')).toBe('admin');
  await expect(page.locator('input#username')).toHaveValue('admin');
  // The refresh token was blacklisted on the server.
  const answer = await request.post('/api/users/refresh/', { data: { refresh } });
  expect(answer.status()).toBe(401);
  // The access token of the session ended with it (not only when it expires).
  const me = await request.get('/api/users/me/', { headers: { Authorization: `Bearer ${access ?? ''}` } });
  expect(me.status()).toBe(401);
  // Protected pages are closed again.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile$/);
});

test('an expired access token is refreshed transparently', async ({ page, request }) => {
  await signIn(page, 'admin');
  await expect(page.getByTestId('home-shortcuts')).toBeVisible();
  const oldRefresh = await storage(page, 'refreshToken');
  const access = (await storage(page, 'accessToken')) ?? '';
  const now = Math.floor(Date.now() / 1000);
  // A genuinely expired token: the real one, signed with the server's key, expired a minute ago.
  const expired = resignJwt(access, { iat: now - 960, exp: now - 60 });
  const me = (token: string) => request.get('/api/users/me/', { headers: { Authorization: `Bearer ${token}` } });
  expect((await me(resignJwt(access, { exp: now + 600 }))).status(), 'the e2e signing key matches the server').toBe(200);
  expect((await me(expired)).status()).toBe(401);

  await page.evaluate((token) => window.localStorage.setItem('accessToken', token), expired);
  const refreshed = page.waitForResponse((r) => r.url().includes('/api/users/refresh/') && r.status() === 200);
  await page.goto('/');
  await refreshed;
  await expect(page.getByTestId('layout-default')).toBeVisible();
  await expect(page.getByTestId('home-counts')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const fresh = await storage(page, 'accessToken');
  expect(fresh).toBeTruthy();
  expect(fresh).not.toBe(expired);
  expect((await me(fresh ?? '')).status()).toBe(200);
  expect(await storage(page, 'refreshToken')).not.toBe(oldRefresh);
});

test('a session whose refresh fails ends on the login page', async ({ page }) => {
  await signIn(page, 'admin');
  await page.evaluate(() => {
    window.localStorage.setItem('accessToken', 'expired');
    window.localStorage.setItem('refreshToken', 'revoked');
  });
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\/login/);
  expect(await storage(page, 'accessToken')).toBeNull();
});

test('the /test pages are for staff only', async ({ page }) => {
  await signIn(page, 'sales');
  await page.goto('/test/user-debug');
  await expect(page.getByTestId('forbidden')).toBeVisible();
});
