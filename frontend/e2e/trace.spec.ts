import { expect, test, type APIRequestContext } from '@playwright/test';
import { PASSWORD } from './helpers';

/**
 * The public carton trace page (issue 7) on a phone, without signing in: a demo carton's origin
 * (country, species, forest supplier, certifications, harvest) and its plots on the map; an unknown
 * code shows the not-found page. Codes are random, so one is looked up through the API first.
 * With SHOTS_DIR set, a screenshot of the page on the phone.
 */
const shots = process.env.SHOTS_DIR;
const PHONE = { width: 390, height: 844 };

interface Label {
  code: string;
  raw_material: number;
  delivery_number: string;
}

async function demoLabel(request: APIRequestContext): Promise<Label> {
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const token = ((await login.json()) as { data: { access: string } }).data.access;
  const headers = { Authorization: `Bearer ${token}` };
  // The oldest label is a demo carton (later tests add their own deliveries and cartons).
  const cartons = await request.get('/api/eudr/cartons/?tenant_id=3&page_size=1&ordering=created_at', { headers });
  expect(cartons.ok()).toBeTruthy();
  const [label] = ((await cartons.json()) as { data: { results: Label[] } }).data.results;
  if (!label) throw new Error('The demo data has no carton labels.');
  return label;
}

test.describe('public carton trace page', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('shows a demo carton\'s origin and plots on a phone without signing in', async ({ browser, request }) => {
    const label = await demoLabel(request);
    // A fresh context: no session, no tenant.
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`/eudrtrace/${label.code}`);

    await expect(page.getByTestId('trace-code')).toHaveText(label.code);
    const origin = page.getByTestId('trace-origin');
    await expect(origin).toBeVisible();
    await expect(page.getByTestId('trace-country')).not.toBeEmpty();
    await expect(origin).toContainText('Tree species');
    await expect(origin).toContainText('Forest supplier');
    await expect(origin).toContainText('Harvest period');
    await expect(page.getByTestId('trace-certifications')).toBeVisible();
    await expect(page.getByTestId('trace-product')).toBeVisible();
    await expect(page.getByTestId('trace-supplier')).toBeVisible();

    // The map with the plots (demo deliveries with cartons all have plots that are not confidential).
    const map = page.getByTestId('trace-map');
    await expect(map).toBeVisible();
    expect(await page.getByTestId('trace-plot').count()).toBeGreaterThan(0);
    // Fitted to the plots (a regional scale, not the whole world), each plot's number inside the map.
    const scale = (await map.locator('.trace-map-scale text').textContent()) ?? '';
    const km = scale.endsWith(' km') ? Number.parseFloat(scale) : 0;
    expect(km).toBeLessThanOrEqual(500);
    const labels = await map.locator('.trace-map-label').evaluateAll((nodes) =>
      nodes.map((node) => (node.getAttribute('transform') ?? '').match(/-?[\d.]+/g)?.map(Number) ?? []),
    );
    expect(labels.length).toBeGreaterThan(0);
    for (const [x = -1, y = -1] of labels) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(640);
      expect(y).toBeGreaterThanOrEqual(-14);
      expect(y).toBeLessThanOrEqual(400);
    }

    // Never the upstream verification number or anything private; fits the phone without sideways scrolling.
    await expect(page.locator('body')).not.toContainText('K7Q2M4XZ');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    // No sign-in was asked for.
    expect(new URL(page.url()).pathname).toBe(`/eudrtrace/${label.code}`);

    if (shots) await page.screenshot({ path: `${shots}/trace-phone.png`, fullPage: true });
    await context.close();
  });

  test('an unknown code shows the not-found page', async ({ page }) => {
    await page.goto('/eudrtrace/NO-SUCH-CARTON-CODE-0000');
    await expect(page.getByTestId('trace-not-found')).toBeVisible();
    await expect(page.getByTestId('trace-not-found')).toContainText('Carton not found');
    await expect(page.getByTestId('trace-origin')).toHaveCount(0);
  });
});
