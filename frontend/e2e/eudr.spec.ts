import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/**
 * EUDR raw materials (issues 6 and 7): the demo supplier creates a delivery with the three-step
 * wizard, generates cartons for it, exports their labels (PDF and CSV) and is refused once the weight
 * runs out; the delivery's plots are on the map; the delivery is edited afterwards; another vendor's
 * delivery is not found. With SHOTS_DIR set, screenshots of the detail page and the edit form.
 */
const shots = process.env.SHOTS_DIR;

/** A small plot in Guangxi, valid under the EU rules (closed ring, 6 decimals, producer properties). */
const PLOTS = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { ProducerName: 'Gaofeng Forest Farm', ProducerCountry: 'CN', ProductionPlace: 'Compartment 21, Nanning' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [108.412311, 22.951211],
            [108.421311, 22.951211],
            [108.421311, 22.958211],
            [108.412311, 22.958211],
            [108.412311, 22.951211],
          ],
        ],
      },
    },
  ],
});

async function inTradingCompany(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.localStorage.setItem('tenant_id', '3');
    window.localStorage.setItem('theme-config', JSON.stringify({ dark: false }));
  });
}

/**
 * Picks an option of an Ant Design select (class prefix `p-`), typing to search first when asked, and
 * checks that the select shows it (options that load while the list is open can move under the mouse).
 */
async function choose(page: Page, testId: string, option: string | RegExp, search?: string): Promise<void> {
  const select = page.getByTestId(testId);
  await expect(async () => {
    await select.click();
    if (search) await page.keyboard.type(search);
    const item = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: option }).first();
    await expect(item).toBeVisible({ timeout: 5000 });
    // Hover makes the option the active one and Enter selects it: on a busy machine the list may render
    // again between a click's press and release, and the click is lost; the active option is kept.
    await item.hover();
    await page.keyboard.press('Enter');
    await expect(select).toContainText(option, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

/** The input of an Ant Design field whose test id sits on the input itself or on its wrapper. */
async function inputOf(page: Page, testId: string) {
  const element = page.getByTestId(testId);
  const tag = await element.evaluate((node) => node.tagName);
  return tag === 'INPUT' ? element : element.locator('input').first();
}

async function apiToken(request: APIRequestContext, username: string): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const body = (await login.json()) as { data: { access: string } };
  return body.data.access;
}

/** Fills the generate-cartons dialog: count, batch code, product (searched), its open order and line. */
async function fillGenerate(page: Page, count: number, batchCode: string): Promise<void> {
  await page.getByTestId('open-generate').click();
  const dialog = page.locator('.p-modal').filter({ has: page.getByTestId('generate-form') });
  await expect(dialog).toBeVisible();
  await (await inputOf(page, 'generate-count')).fill(String(count));
  await page.getByTestId('generate-batch-code').fill(batchCode);
  // One character is not enough to search.
  await page.getByTestId('generate-product').click();
  await page.keyboard.type('C');
  await expect(dialog.getByText('Type at least 2 characters to search for a product.').first()).toBeVisible();
  await page.keyboard.type('T-DW-4030');
  const product = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: 'CT-DW-4030' }).first();
  await expect(product).toBeVisible();
  await product.click();
  await choose(page, 'generate-order', /PO-/);
  await choose(page, 'generate-line', /CT-DW-4030/);
  await expect(page.getByTestId('generate-preview')).toBeVisible();
}

test('the supplier creates a delivery, generates and exports cartons, and is refused when weight runs out', async ({ page }) => {
  test.setTimeout(180_000);
  await inTradingCompany(page);
  await signIn(page, 'supplier');
  await page.goto('/supplier/raw-materials');
  await page.getByTestId('new-delivery').click();
  await expect(page).toHaveURL(/\/supplier\/raw-materials\/new/);

  // Step 1: basic info (the supplier's own parent vendor is fixed).
  const number = `E2E-DN-${Date.now()}`;
  await expect(page.getByTestId('fixed-parent-vendor')).toContainText('Shanghai Evergreen');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByText('Delivery number is required')).toBeVisible();
  await page.getByTestId('field-delivery-number').fill(number);
  await choose(page, 'field-country', /China/, 'China');
  await page.locator('#forest_supplier_name').fill('Guangxi Gaofeng Forest Farm');
  await page.getByTestId('wizard-next').click();

  // Step 2: material details and the plots (checked by the server, shown on the map).
  await expect(page.getByTestId('line-0')).toBeVisible();
  await page.getByTestId('wizard-next').click();
  await expect(page.getByText('Material type is required')).toBeVisible();
  await choose(page, 'line-0-material-type', 'Paper');
  await (await inputOf(page, 'line-0-weight')).fill('60');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByText('Pulp type is required for Paper materials')).toBeVisible();
  await choose(page, 'line-0-pulp-type', 'Virgin fibre');
  await page.getByLabel('Species (scientific names)').fill('Pinus massoniana');
  await page.keyboard.press('Enter');
  await page.getByTestId('field-geojson').fill(PLOTS);
  await page.getByTestId('validate-geojson').click();
  await expect(page.getByTestId('geojson-valid')).toContainText('1 plot passes');
  await expect(page.getByTestId('plot-map').locator('path.plot-map-plot')).toHaveCount(1);

  // Step 3: review (after the server saved the draft) and create.
  await page.getByTestId('wizard-next').click();
  await expect(page).toHaveURL(/draft=\d+/);
  await expect(page.getByTestId('review-basic')).toContainText(number);
  await page.getByTestId('wizard-create').click();
  await expect(page).toHaveURL(/\/supplier\/raw-materials\/\d+$/);
  await expect(page.getByTestId('detail-title')).toHaveText(number);
  await expect(page.getByTestId('plots-card').locator('path.plot-map-plot')).toHaveCount(1);

  // Generate 10 cartons.
  await fillGenerate(page, 10, '20261121X');
  await page.getByTestId('generate-submit').click();
  await expect(page.getByText('10 cartons generated in batch 20261121X')).toBeVisible();
  const rows = page.getByTestId('labels-table').locator('.p-table-tbody tr.p-table-row');
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId('batches-card')).toContainText('20261121X');

  // Export the labels: PDF (default template) and CSV.
  await page.getByTestId('export-labels').click();
  const panel = page.getByTestId('export-panel');
  await panel.getByText('PDF', { exact: true }).click();
  await panel.getByText('Default (100×150 mm)').click();
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-labels-run').click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfBytes = await readFile(await pdf.path());
  expect(pdfBytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
  // The panel closes after a download; open it again for the CSV.
  await expect(panel).toBeHidden();
  await page.getByTestId('export-labels').click();
  await expect(panel).toBeVisible();
  await panel.getByText('CSV', { exact: true }).click();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-labels-run').click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const csvText = (await readFile(await csv.path())).toString('utf8');
  expect(csvText).toContain('20261121X');
  expect(csvText.trim().split('\n')).toHaveLength(11);
  await page.keyboard.press('Escape');

  // More cartons than the remaining weight allows: refused with the server's message.
  await fillGenerate(page, 5000, '20261121X');
  await expect(page.getByTestId('generate-preview')).toContainText('More than the remaining weight');
  await page.getByTestId('generate-submit').click();
  await expect(page.getByTestId('generate-refusal')).toContainText('Insufficient weight');
  // Closed by its Cancel button: Escape may only close a select's open list inside the dialog.
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('generate-form')).toBeHidden();
  await expect(rows).toHaveCount(10);

  if (shots) {
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${shots}/eudr-detail-map.png`, fullPage: true });
  }

  // Afterwards the delivery is edited: the common name the DDS package asks for is added.
  await page.getByTestId('edit-delivery').click();
  await expect(page).toHaveURL(/\/supplier\/raw-materials\/\d+\/edit$/);
  await expect(page.getByTestId('dds-fix-list')).toBeVisible();
  await page.getByTestId('fix-common_name_missing').click();
  await page.getByLabel('Species (common names)').fill('Masson pine');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('plot-map').locator('path.plot-map-plot')).toHaveCount(1);
  if (shots) await page.screenshot({ path: `${shots}/eudr-edit.png`, fullPage: true });
  await page.getByTestId('edit-save').click();
  await expect(page.getByText(`Delivery ${number} saved`)).toBeVisible();
  await expect(page).toHaveURL(/\/supplier\/raw-materials\/\d+$/);
  await expect(page.getByTestId('lines-table')).toContainText('Masson pine');
});

test('the supplier cannot open another vendor\'s delivery', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin');
  const list = await request.get('/api/eudr/raw-materials/?tenant_id=3&search=NBC-DN-2026-0033', { headers: { Authorization: `Bearer ${admin}` } });
  expect(list.ok()).toBeTruthy();
  const other = ((await list.json()) as { data: { results: { id: number; delivery_number: string }[] } }).data.results[0];
  expect(other?.delivery_number).toBe('NBC-DN-2026-0033');

  // The API answers 404 to the supplier of the other parent vendor ...
  const supplier = await apiToken(request, 'supplier');
  const direct = await request.get(`/api/eudr/raw-materials/${other?.id}/?tenant_id=3`, { headers: { Authorization: `Bearer ${supplier}` } });
  expect(direct.status()).toBe(404);

  // ... and the page says it is not found, with nothing of the delivery shown.
  await inTradingCompany(page);
  await signIn(page, 'supplier');
  await page.goto(`/supplier/raw-materials/${other?.id}`);
  await expect(page.getByTestId('delivery-not-found')).toBeVisible();
  await expect(page.getByText('NBC-DN-2026-0033')).toHaveCount(0);
  await page.goto(`/supplier/raw-materials/${other?.id}/edit`);
  await expect(page.getByTestId('raw-material-wizard')).toHaveCount(0);
  await expect(page.getByText('NBC-DN-2026-0033')).toHaveCount(0);
});

test('an administrator records the filed due diligence statement of a demo delivery', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin');
  const list = await request.get('/api/eudr/raw-materials/?tenant_id=3&search=NBC-DN-2026-0033', { headers: { Authorization: `Bearer ${admin}` } });
  const delivery = ((await list.json()) as { data: { results: { id: number }[] } }).data.results[0];
  expect(delivery).toBeTruthy();

  await inTradingCompany(page);
  await signIn(page, 'admin');
  await page.goto(`/purchase/eudr/raw-materials/${delivery?.id}`);
  const card = page.getByTestId('filed-statement');
  await expect(card).toBeVisible();
  await card.getByTestId('filed-record').click();
  await page.getByTestId('filed-reference-input').fill('25nle2e1234567');
  await page.getByTestId('filed-verification-input').fill('K7R8LA90');
  await page.getByTestId('filed-save').click();
  await expect(card.getByTestId('filed-reference')).toContainText('25NLE2E1234567');
  await expect(card.getByTestId('filed-verification')).toContainText('K7R8LA90');
  await expect(card).toContainText('Recorded by');
  if (shots) await page.screenshot({ path: `${shots}/eudr-filed-statement.png`, fullPage: true });
});
