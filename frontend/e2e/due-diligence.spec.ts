import { expect, test, type APIRequestContext } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';
import { axeClean } from './phone';

/**
 * The due diligence of a statement (docs/duediligence.md): the carton factory registers paper from a
 * standard-risk country (Brazil; through the API, its wizard is walked in eudr.spec.ts); on the delivery
 * page the office sees that the statement cannot be filed without a risk assessment, assesses the risk
 * with a criterion at risk and an independent audit as its mitigation, records the statement's
 * reference, and then cannot delete the delivery: its records are kept five years (409 records_kept,
 * its message shown). The forest layers page and the annual report page are visited too. Axe at each
 * step.
 */

const TENANT = 3;
const CRITERIA = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'];

interface Envelope<T> {
  data: T;
}

async function token(request: APIRequestContext, username: string): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as Envelope<{ access: string }>).data.access;
}

/** A new delivery of Brazilian paper by the demo carton factory (Shanghai Evergreen Packaging). */
async function brazilianDelivery(request: APIRequestContext): Promise<{ id: number; number: string }> {
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
            geometry: { type: 'Point', coordinates: [-47.882778, -15.793889] },
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

test('a statement rests on an assessed and mitigated risk, and its delivery is kept', async ({ page, request }) => {
  test.setTimeout(120_000);
  const delivery = await brazilianDelivery(request);
  await page.addInitScript(() => {
    window.localStorage.setItem('tenant_id', '3');
    window.localStorage.setItem('theme-config', JSON.stringify({ dark: false }));
  });
  await signIn(page, 'admin');

  // The due diligence card: Brazil is standard risk, so the statement waits for an assessment.
  await page.goto(`/purchase/eudr/raw-materials/${String(delivery.id)}`);
  const card = page.getByTestId('due-diligence');
  await expect(card.getByTestId('dd-country-BR')).toContainText('Standard risk');
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
  await dialog.getByTestId('measure-kind').click();
  await page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: 'Independent survey or audit' }).click();
  await dialog.getByTestId('measure-description').fill('Field audit of the plot by an accredited body');
  await dialog.getByTestId('measure-evidence').fill('Audit report AR-2026-117: no conversion after 2020');
  await dialog.getByTestId('assessment-save').click();
  await expect(page.getByText('Risk assessment recorded')).toBeVisible();
  await expect(card.getByTestId('dd-can-file')).toBeVisible();
  await expect(card.getByTestId('dd-assessment')).toContainText('Negligible');
  await expect(card.getByTestId('dd-assessment')).toContainText('Field audit of the plot');
  await axeClean(page, 'delivery page, assessed');

  // The statement's reference recorded by hand: from now on the records are kept five years.
  await page.getByTestId('filed-record').click();
  await page.getByTestId('filed-reference-input').fill(statement);
  await page.getByTestId('filed-verification-input').fill('K7R8LA90XQ');
  await page.getByTestId('filed-save').click();
  await expect(page.getByTestId('filed-reference')).toContainText(statement);
  await expect(card.getByTestId('dd-kept')).toContainText(statement);

  // Deleting the delivery is refused, with the reason.
  await page.getByTestId('delete-delivery').click();
  await page.getByTestId('confirm-delete-delivery').click();
  await expect(page.getByText(/is kept until .* and cannot be deleted/)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/raw-materials/${String(delivery.id)}$`));
  await axeClean(page, 'delivery kept');

  // The annual report counts the statement; the forest layers page answers.
  await page.goto('/purchase/eudr/annual-report');
  await expect(page.getByTestId('report-statements')).toContainText(statement);
  await axeClean(page, 'annual report');
  await page.goto('/purchase/eudr/forest-layers');
  await expect(page.getByTestId('layer-table')).toBeVisible();
  await expect(page.getByTestId('layer-upload')).toBeVisible();
  await axeClean(page, 'forest layers');
});
