/**
 * Offline, every page of every layout says so: each kind of user signs in, the device goes offline, and
 * every route of theirs (routes.ts) is opened in the app as a click on a link would (the document stays,
 * so what the app already holds stays too). Each must show the offline badge in the bar and the notice
 * above the page, which says what still works; none may stay on a spinner without a word. Signing in
 * offline says that a connection is needed.
 */
import { expect, test } from '@playwright/test';
import { signIn, type DemoUser } from './helpers';
import { INTERNAL_ROUTES, openInApp, resolve, settled, SUPPLIER_ROUTES, TENANT, WAREHOUSE_ROUTES, type Ids } from './routes';

const KINDS: { user: DemoUser; title: string; routes: string[] }[] = [
  { user: 'admin', title: 'internal user (admin)', routes: INTERNAL_ROUTES },
  { user: 'warehouse', title: 'warehouse user', routes: WAREHOUSE_ROUTES },
  { user: 'supplier', title: 'supplier', routes: SUPPLIER_ROUTES },
];

/**
 * Offline no page loads a record, so any id fills the detail pages' paths (and the walk does not depend
 * on which demo records the journeys before it changed).
 */
const ANY_ID: Ids = new Proxy({}, { get: () => '1' });

for (const kind of KINDS) {
  test(`offline, every page of the ${kind.title} says so`, async ({ browser }) => {
    test.setTimeout(60_000 + kind.routes.length * 15_000);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    await context.addInitScript((tenant) => {
      if (!window.localStorage.getItem('tenant_id')) window.localStorage.setItem('tenant_id', tenant);
    }, TENANT);
    const page = await context.newPage();
    await signIn(page, kind.user);
    // The layout and the first page loaded while online (signIn returns once the URL left the sign-in
    // page, which can be before the layout's code has arrived).
    await settled(page);
    await expect(page.getByTestId('offline-badge')).toHaveCount(0);
    await context.setOffline(true);
    const silent: string[] = [];
    for (const pattern of kind.routes.filter((route) => route !== '/no/such/page')) {
      await openInApp(page, resolve(pattern, ANY_ID), { drawn: false });
      try {
        await expect(page.getByTestId('offline-badge')).toBeVisible({ timeout: 10_000 });
        await expect(page.getByTestId('offline-notice')).toBeVisible({ timeout: 10_000 });
        await expect(page.getByTestId('offline-notice')).toContainText('This device is offline');
      } catch {
        silent.push(pattern);
      }
    }
    expect(silent, 'pages that did not say the device is offline').toEqual([]);
    await context.setOffline(false);
    await expect(page.getByTestId('offline-notice')).toHaveCount(0);
    await expect(page.getByTestId('offline-badge')).toHaveCount(0);
    await context.close();
  });
}

test('signing in offline says a connection is needed', async ({ page, context }) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await context.setOffline(true);
  await page.locator('input#username').fill('admin');
  await page.locator('input#password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('You are offline: signing in needs a connection to the server.')).toBeVisible();
  await context.setOffline(false);
});
