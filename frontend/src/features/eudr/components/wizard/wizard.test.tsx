import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, created, fail } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import RawMaterialWizardPage from '../../pages/RawMaterialWizardPage';
import { renderAt } from '../../test/harness';
import { fileChanges, flattenFieldErrors, fromRawMaterial, isGeoJsonTextBroken, resumeStep, stepFromParam, stepOfCheck, toInput } from './wizardModel';
import type { RawMaterial } from '../../api/types';

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser({ is_supplier: true, parent_vendor: { id: 4, name: 'Shanghai Evergreen Packaging', cname: '上海常青包装' } }) });
});

afterEach(() => server.restore());

function renderWizard() {
  return renderAt('/supplier/raw-materials/new', '/supplier/raw-materials/new', <RawMaterialWizardPage />);
}

describe('the creation wizard', () => {
  it('shows docs/specification.md messages on each step and keeps the user on the step', async () => {
    const user = userEvent.setup({ delay: null });
    renderWizard();
    expect(screen.getByTestId('fixed-parent-vendor')).toHaveTextContent('Shanghai Evergreen Packaging');

    await user.click(screen.getByTestId('wizard-next'));
    expect(await screen.findByText('Delivery number is required')).toBeInTheDocument();
    expect(screen.queryByTestId('line-0')).not.toBeInTheDocument();

    await user.type(screen.getByTestId('field-delivery-number'), 'DN-1');
    await user.click(screen.getByTestId('wizard-next'));
    await screen.findByTestId('line-0');

    // The parse button needs a delivery file first.
    await user.click(screen.getByTestId('parse-delivery-file'));
    expect(await screen.findByText('Delivery file is required (parse)')).toBeInTheDocument();

    await user.click(screen.getByTestId('wizard-next'));
    expect(await screen.findByText('Material type is required')).toBeInTheDocument();
    expect(screen.getByText('Valid weight is required')).toBeInTheDocument();

    // Without any line.
    await user.click(screen.getByRole('button', { name: 'Remove material 1' }));
    await user.click(screen.getByTestId('wizard-next'));
    expect(await screen.findByText('At least one material is required')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  }, 60_000);

  it('saves a draft on the server and shows server field errors on their fields', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('POST', '/api/eudr/raw-materials/', (config) => {
      const body = JSON.parse(String(config.data)) as { is_draft: boolean; delivery_number: string };
      expect(body.is_draft).toBe(true);
      return fail(400, 'Invalid input.', 'validation_error', { delivery_number: ['This parent vendor already has a delivery with this number.'] });
    });
    renderWizard();
    await user.type(screen.getByTestId('field-delivery-number'), 'DN-1');
    await user.click(screen.getByTestId('save-draft'));
    expect(await screen.findByText('This parent vendor already has a delivery with this number.')).toBeInTheDocument();

    server.on('POST', '/api/eudr/raw-materials/', created({ ...DRAFT, id: 7, delivery_number: 'DN-2' }));
    await user.clear(screen.getByTestId('field-delivery-number'));
    await user.type(screen.getByTestId('field-delivery-number'), 'DN-2');
    await user.click(screen.getByTestId('save-draft'));
    expect(await screen.findByText('Draft saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Draft DN-2')).toBeInTheDocument());
  }, 60_000);
});

const DRAFT: RawMaterial = {
  id: 7,
  parent_vendor: 4,
  parent_vendor_name: 'Shanghai Evergreen Packaging',
  parent_vendor_cname: '',
  is_draft: true,
  delivery_number: 'DN-7',
  document_from: '',
  description: '',
  status: 'draft',
  country_code: 'FI',
  country_name: 'Finland',
  lines: [{ id: 1, material_type: 'paper', weight_kg: '500.000', pulp_type: 'virgin', pulp_brand: '', scientific_names: ['Picea abies'], common_names: [] }],
  forest_supplier_name: '',
  fm_certification_type: 'FSC',
  fm_certificate_number: 'FSC-C1',
  fm_certificate_expiry: '2027-01-31',
  coc_certification: '',
  coc_certificate_number: '',
  coc_certificate_expiry: null,
  material_sc_number: '',
  harvest_begin_month: '2024-03',
  harvest_end_month: '',
  location_geojson: null,
  geolocation_confidential: false,
  upstream_dds_reference: '',
  upstream_dds_verification: '',
  upstream_verification_result: '',
  upstream_verification_status: '',
  upstream_verified_at: null,
  upstream_verification_message: '',
  dds_reference_number: '',
  dds_verification_number: '',
  dds_filed_at: null,
  dds_filed_by_name: '',
  files: { delivery_file: { name: 'd.csv', size: 10, content_type: 'text/csv', uploaded_at: '', url: '' } },
  checks: [],
  min_consumption_per_carton: '0.100',
  loss_rate_percent: '0.00',
  allowed_carton_cap: 5000,
  approved_over_cap: 0,
  issued_cartons: 0,
  remaining_cartons: 5000,
  policy_source: '',
  lines_count: 1,
  submitted_at: null,
  created_at: '2026-11-21T10:00:00Z',
  updated_at: '2026-11-21T10:00:00Z',
  weight: { original_kg: '500.000', loss_kg: '0.000', available_kg: '500.000', used_kg: '0.000', remaining_kg: '500.000' },
};

describe('wizard values', () => {
  it('round-trips a draft and resumes on the first step that needs work', () => {
    const values = fromRawMaterial(DRAFT);
    expect(values.files?.delivery_file?.stored?.name).toBe('d.csv');
    expect(resumeStep(values)).toBe(2);
    expect(resumeStep({ ...values, delivery_number: '' })).toBe(0);
    expect(resumeStep({ ...values, lines: [] })).toBe(1);
    const input = toInput(values);
    expect(input).toMatchObject({
      parent_vendor: 4,
      delivery_number: 'DN-7',
      country_code: 'FI',
      fm_certificate_expiry: '2027-01-31',
      harvest_begin_month: '2024-03',
      harvest_end_month: '',
      location_geojson: null,
    });
    expect(input.lines[0]).toEqual({ material_type: 'paper', weight_kg: '500.000', pulp_type: 'virgin', pulp_brand: '', scientific_names: ['Picea abies'], common_names: [] });
  });

  it('refuses GeoJSON that does not parse; a draft leaves it out instead of wiping the stored plots', () => {
    expect(() => toInput({ location_geojson_text: '{ nope' })).toThrow(SyntaxError);
    const draft = toInput({ location_geojson_text: '{ nope' }, { lenientGeoJson: true });
    expect('location_geojson' in draft).toBe(false);
    expect(isGeoJsonTextBroken({ location_geojson_text: '{ nope' })).toBe(true);
    expect(isGeoJsonTextBroken({ location_geojson_text: '  ' })).toBe(false);
    // Emptying the text on purpose does clear the plots.
    expect(toInput({ location_geojson_text: '' }, { lenientGeoJson: true }).location_geojson).toBeNull();
  });

  it('lists the document changes a save makes', () => {
    const stored = { name: 'a.pdf', size: 1, content_type: 'application/pdf', uploaded_at: '', url: '' };
    const file = new File(['x'], 'b.pdf');
    expect(
      fileChanges({
        vendor_certificate: { stored, file },
        sc_invoice: { stored, remove: true },
        logging_license: { stored },
        location_file: { remove: true },
        delivery_file: null,
      }),
    ).toEqual({ uploads: [['vendor_certificate', file]], removals: ['sc_invoice'] });
  });

  it('knows which step fixes each DDS check', () => {
    expect(stepOfCheck('species_missing')).toBe(1);
    expect(stepOfCheck('geolocation_missing')).toBe(1);
    expect(stepOfCheck('geolocation_self_intersection')).toBe(1);
    expect(stepOfCheck('harvest_period_missing')).toBe(0);
    expect(stepOfCheck('certificate_expired')).toBe(0);
    expect(stepOfCheck('fm_certificate_expired')).toBe(0);
    expect(stepOfCheck('no_documents')).toBe(0);
    expect(stepOfCheck('operator_name_missing')).toBeNull();
    expect(stepOfCheck('hs_code_missing')).toBeNull();
    expect(stepFromParam('materials')).toBe(1);
    expect(stepFromParam('2')).toBe(2);
    expect(stepFromParam('9')).toBe(0);
    expect(stepFromParam(null)).toBe(0);
  });

  it('flattens nested server errors to field paths', () => {
    expect(flattenFieldErrors({ delivery_number: ['x'], lines: [{}, { weight_kg: ['Valid weight is required'] }] })).toEqual({
      delivery_number: ['x'],
      'lines.1.weight_kg': ['Valid weight is required'],
    });
  });
});
