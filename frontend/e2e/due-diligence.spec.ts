import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn } from './helpers';
import { axeClean } from './phone';
import { TENANT, call, fileWithTheLocalSystem, orderAndLabel, receiveByScan, sellAndPick, statusReadDue, token } from './goods';
import { SERVER_SHELL_AVAILABLE } from './serverShell';

/**
 * The due diligence of a statement (docs/duediligence.md): the carton factory registers paper from a
 * standard-risk country (Brazil; through the API, its wizard is walked in eudr.spec.ts); on the delivery
 * page the office sees that the statement cannot be filed without a risk assessment, assesses the risk
 * with a criterion at risk and an independent audit as its mitigation, and files the statement with the
 * local EU information system of the test server (apps/eudr/tests/traces_system.py). A carton labelled
 * from that paper before the filing (on its way in a container, then received) is sold and ships under
 * the statement. Then neither the delivery nor the shipped carton can be deleted: the records are kept
 * five years (409 records_kept; the page offers no delete once cartons are labelled) and a shipped
 * carton's label is never voided (409 carton_not_voidable, its checkbox disabled). The forest layers
 * page and the annual report page are visited too. Axe at each step.
 */

const CRITERIA = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'];

interface Envelope<T> {
  data: T;
}

/** A new delivery of Brazilian paper by the demo carton factory (Shanghai Evergreen Packaging). */
async function brazilianDelivery(request: APIRequestContext, point: [number, number] = [-47.882778, -15.793889]): Promise<{ id: number; number: string }> {
  const auth = await token(request, 'supplier');
  const number = `DD-E2E-${String(Date.now()).slice(-8)}`;
  const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  const answer = await request.post(`/api/eudr/raw-materials/?tenant_id=${String(TENANT)}`, {
    headers: { Authorization: `Bearer ${auth}` },
    data: {
      delivery_number: number,
      document_from: 'Suzano Papel e Celulose',
      description: 'Kraftliner 140 g/m2',
      country_code: 'BR',
      forest_supplier_name: 'Fazenda Santa Rita',
      fm_certification_type: 'FSC',
      fm_certificate_number: 'FSC-C100201',
      fm_certificate_expiry: nextYear,
      coc_certification: 'FSC Mix 70%',
      coc_certificate_number: 'SGSHK-COC-000124',
      coc_certificate_expiry: nextYear,
      harvest_begin_month: '2025-01',
      harvest_end_month: '2025-06',
      location_geojson: {
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { ProducerName: 'Fazenda Santa Rita', ProducerCountry: 'BR', Area: 2 },
            geometry: { type: 'Point', coordinates: point },
          },
        ],
      },
      lines: [
        {
          material_type: 'paper',
          weight_kg: '1000',
          pulp_type: 'virgin',
          pulp_brand: 'Suzano',
          scientific_names: ['Eucalyptus grandis'],
          common_names: ['Eucalyptus'],
        },
      ],
    },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return { id: ((await answer.json()) as Envelope<{ id: number }>).data.id, number };
}

/** A reference number of the EU information system's form (2 digits, 2 letters, 10 letters or digits). */
function reference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  let tail = '';
  for (let i = 0; i < 10; i += 1) tail += alphabet[Math.floor(Math.random() * alphabet.length)];
  return `26NL${tail}`;
}

test('a statement rests on an assessed and mitigated risk; its delivery and its shipped carton are kept', async ({ page, request }) => {
  test.skip(!SERVER_SHELL_AVAILABLE, 'moves the status read forward in the database of the server the tests start');
  test.setTimeout(300_000);
  const delivery = await brazilianDelivery(request);
  await fileWithTheLocalSystem(request);
  // Before the statement: a carton of this paper is labelled for an order and arrives in a container.
  const goods = await orderAndLabel(request, 1, 'Due diligence journey', delivery.number);
  const carton = goods.labels[0]?.code ?? '';
  await receiveByScan(request, goods);
  await page.addInitScript(() => {
    window.localStorage.setItem('tenant_id', '3');
    window.localStorage.setItem('theme-config', JSON.stringify({ dark: false }));
  });
  await signIn(page, 'admin');

  // The due diligence card: Brazil is standard risk, so the statement waits for an assessment.
  await page.goto(`/purchase/eudr/raw-materials/${String(delivery.id)}`);
  const card = page.getByTestId('due-diligence');
  await expect(card.getByTestId('dd-country-BR')).toContainText('Standard risk', { timeout: 30_000 }); // the first page of a cold start
  await expect(card.getByTestId('dd-blockers')).toContainText('No risk assessment');
  await expect(card.getByTestId('dd-forest-none')).toBeVisible();
  await axeClean(page, 'delivery page, not assessed');

  // Recording the statement is refused while the gate is closed.
  await page.getByTestId('filed-record').click();
  const statement = reference();
  await page.getByTestId('filed-reference-input').fill(statement);
  await page.getByTestId('filed-verification-input').fill('K7R8LA90XQ');
  await page.getByTestId('filed-save').click();
  await expect(page.getByRole('dialog').getByRole('alert').filter({ hasText: 'No risk assessment' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // The assessment: criterion (f) at risk, mitigated by an independent audit, negligible.
  await card.getByTestId('dd-assess').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('criterion-a')).toBeVisible();
  await axeClean(page, 'assessment dialog');
  for (const code of CRITERIA) {
    await dialog.getByTestId(`evidence-${code}`).fill(code === 'f' ? 'Deforestation reported in the state of Goiás' : `Checked (${code}): supplier file 2026`);
  }
  await dialog.getByTestId('criterion-f').getByText('Risk', { exact: true }).click();
  await dialog.getByTestId('assessment-save').click();
  await expect(dialog.getByTestId('mitigation-errors')).toContainText('mitigation');
  await dialog.getByTestId('add-measure').click();
  // Hover and Enter, then check the select shows it: on a busy machine the list may render again between
  // a click's press and release, and the click is lost (as eudr.spec.ts chooses).
  const kind = dialog.getByTestId('measure-kind');
  await expect(async () => {
    await kind.click();
    const option = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: 'Independent survey or audit' }).first();
    await expect(option).toBeVisible({ timeout: 5000 });
    await option.hover();
    await page.keyboard.press('Enter');
    await expect(kind).toContainText('Independent survey or audit', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByTestId('measure-description').fill('Field audit of the plot by an accredited body');
  await dialog.getByTestId('measure-evidence').fill('Audit report AR-2026-117: no conversion after 2020');
  await dialog.getByTestId('assessment-save').click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('dd-can-file')).toBeVisible();
  await expect(card.getByTestId('dd-assessment')).toContainText('Negligible');
  await expect(card.getByTestId('dd-assessment')).toContainText('Field audit of the plot');
  await axeClean(page, 'delivery page, assessed');

  // The statement is filed with the EU system; half an hour later (moved forward here) its status is
  // read: available, with its reference. From now on the records are kept five years.
  const filing = page.getByTestId('dds-filing');
  await filing.getByTestId('filing-submit').click();
  await expect(filing.getByTestId('filing-status')).toBeVisible();
  expect(statusReadDue(`delivery_id=${String(delivery.id)}`)).toBe(1);
  await filing.getByTestId('filing-refresh').click();
  await expect(filing.getByTestId('filing-status')).toHaveText(/available/i, { timeout: 30_000 });
  const filed = (await filing.getByTestId('filing-reference').textContent())?.trim() ?? '';
  expect(filed).toMatch(/^26NL[0-9A-Z]{10}$/);
  await expect(card.getByTestId('dd-kept')).toContainText(filed);
  await axeClean(page, 'delivery page, filed');

  // The carton labelled before the filing is covered by it: it is sold and ships.
  const admin = await token(request, 'admin');
  const shipment = await sellAndPick(request, goods, carton);
  await call(request, admin, 'POST', `/api/salesorders/shipments/${String(shipment.id)}/ship/`);

  // Deleting the delivery is not offered (it has carton labels), and the server refuses it with the
  // reason that comes first: its records are kept.
  await expect(page.getByTestId('delete-delivery')).toHaveCount(0);
  const deleted = await request.delete(`/api/eudr/raw-materials/${String(delivery.id)}/?tenant_id=${String(TENANT)}`, {
    headers: { Authorization: `Bearer ${admin}` },
  });
  expect(deleted.status()).toBe(409);
  const refusal = (await deleted.json()) as { error: string; message: string };
  expect(refusal.error).toBe('records_kept');
  expect(refusal.message).toMatch(/is kept until .* and cannot be deleted/);
  await axeClean(page, 'delivery kept');

  // Nor can the shipped carton's label be voided: its checkbox is disabled, and the server refuses.
  const labelSearch = page.getByPlaceholder('Code, article, batch, container');
  await labelSearch.fill(carton);
  await labelSearch.press('Enter');
  const box = page.getByRole('checkbox', { name: new RegExp(carton) });
  await expect(box).toBeVisible();
  await expect(box).toBeDisabled();
  const voided = await request.post(`/api/eudr/cartons/bulk-delete/?tenant_id=${String(TENANT)}`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { ids: [goods.labels[0]?.id], reason: 'Printed twice' },
  });
  expect(voided.status()).toBe(409);
  expect(((await voided.json()) as { error: string }).error).toBe('carton_not_voidable');

  // The annual report counts the statement; the forest layers page answers.
  await page.goto('/purchase/eudr/annual-report');
  await expect(page.getByTestId('report-statements')).toContainText(filed);
  await axeClean(page, 'annual report');
  await page.goto('/purchase/eudr/forest-layers');
  await expect(page.getByTestId('layer-table')).toBeVisible();
  await expect(page.getByTestId('layer-upload')).toBeVisible();
  await axeClean(page, 'forest layers');
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAYER_PREFIX = 'Tree cover loss e2e';

/** A tiny tree-cover-loss GeoTIFF (20 x 20 cells of 0.0005 degree from 50.01 W, 9.99 S, all lost in
 * 2022), written with the backend's rasterio. */
function lossLayer(file: string): void {
  const uv = existsSync(path.join(ROOT, '.tools', 'bin', 'uv')) ? path.join(ROOT, '.tools', 'bin', 'uv') : 'uv';
  const code = [
    'import sys, numpy, rasterio',
    'from rasterio.transform import from_origin',
    "with rasterio.open(sys.argv[1], 'w', driver='GTiff', width=20, height=20, count=1, dtype='uint8', crs='EPSG:4326', transform=from_origin(-50.01, -9.99, 0.0005, 0.0005)) as d:",
    '    d.write(numpy.full((20, 20), 22, dtype=numpy.uint8), 1)',
  ].join('\n');
  execFileSync(uv, ['run', '--frozen', 'python', '-c', code, file], { cwd: path.join(ROOT, 'backend') });
}

test('a forest layer is uploaded, flags a plot lost after 2020 and draws it, and is deleted again', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  // Layers an interrupted run of this journey left behind.
  const auth = await token(request, 'admin');
  const headers = { Authorization: `Bearer ${auth}` };
  const layers = await request.get(`/api/duediligence/forest-layers/?tenant_id=${String(TENANT)}`, { headers });
  for (const left of ((await layers.json()) as Envelope<{ id: number; name: string }[]>).data.filter((l) => l.name.startsWith(LAYER_PREFIX))) {
    await request.delete(`/api/duediligence/forest-layers/${String(left.id)}/?tenant_id=${String(TENANT)}`, { headers });
  }
  const delivery = await brazilianDelivery(request, [-50.005, -9.995]);
  const file = testInfo.outputPath('loss.tif');
  lossLayer(file);
  await page.addInitScript(() => {
    window.localStorage.setItem('tenant_id', '3');
    window.localStorage.setItem('theme-config', JSON.stringify({ dark: false }));
  });
  await signIn(page, 'admin');
  const name = `${LAYER_PREFIX} ${String(Date.now()).slice(-6)}`;

  await page.goto('/purchase/eudr/forest-layers');
  await page.getByTestId('layer-upload').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[type="file"]').setInputFiles(file);
  await dialog.getByTestId('layer-name').fill(name);
  await dialog.getByRole('radio', { name: 'Year of tree-cover loss' }).check();
  await dialog.getByTestId('layer-source').fill('Synthetic loss layer');
  await dialog.getByTestId('layer-date').fill('2025-04-01');
  await axeClean(page, 'upload dialog');
  await dialog.getByTestId('layer-upload-ok').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('layer-table').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Ready', { timeout: 30_000 });
  await expect(row).toContainText(/\d+ plots? checked/);
  await axeClean(page, 'forest layers with a layer');

  // The delivery's plot lost its tree cover in 2022: flagged on the card, with the plot over the layer.
  await page.goto(`/purchase/eudr/raw-materials/${String(delivery.id)}`);
  const card = page.getByTestId('due-diligence');
  await expect(card.getByTestId('dd-forest')).toContainText('Tree cover lost after 2020', { timeout: 30_000 });
  await expect(card.getByTestId('dd-forest')).toContainText(name);
  await expect(card.getByTestId('dd-forest-flagged')).toBeVisible();
  await expect(card.getByTestId('dd-blockers')).toContainText('Tree cover was lost after 2020 on plot 1');
  await card.getByRole('button', { name: 'Show map' }).click();
  const map = card.getByRole('img', { name: new RegExp(name) });
  await expect(map).toBeVisible();
  expect(await map.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await axeClean(page, 'flagged plot with its map');

  // No kept record rests on the layer: it is deleted, and its results with it.
  await page.goto('/purchase/eudr/forest-layers');
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.locator('.p-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await page.goto(`/purchase/eudr/raw-materials/${String(delivery.id)}`);
  await expect(page.getByTestId('due-diligence').getByTestId('dd-forest-none')).toBeVisible();
});
