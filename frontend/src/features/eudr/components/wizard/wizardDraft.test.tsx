import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import RawMaterialWizardPage from '../../pages/RawMaterialWizardPage';
import { deliveryFixture, PLOTS } from '../../test/fixtures';
import { renderAt } from '../../test/harness';

vi.mock('@/shared/map/LazyPlotMap', () => import('../../test/mapStub'));

let server: MockServer;

const DRAFT = deliveryFixture({
  id: 7,
  status: 'draft',
  is_draft: true,
  delivery_number: 'SEP-DN-7',
  submitted_at: null,
  location_geojson: PLOTS,
  files: { delivery_file: { name: 'SEP-DN-7.csv', size: 120, content_type: 'text/csv', uploaded_at: '', url: '' } },
});

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser({ is_supplier: true, parent_vendor: { id: 4, name: 'Shanghai Evergreen Packaging', cname: '' } }) });
  server.on('GET', '/api/eudr/raw-materials/7/', ok(DRAFT));
  server.on('POST', '/api/eudr/geojson/validate/', ok({ valid: true, error_count: 0, warning_count: 0, problems: [], feature_collection: PLOTS, areas_ha: [1, 3.2], total_area_ha: 4.2 }));
});

afterEach(() => server.restore());

async function openMaterialsStep() {
  const user = userEvent.setup({ delay: null });
  renderAt('/supplier/raw-materials/new?draft=7', '/supplier/raw-materials/new', <RawMaterialWizardPage />);
  // A complete draft resumes on the review; go back to the materials.
  await user.click(within(await screen.findByTestId('wizard-steps')).getByText('Material details'));
  await screen.findByTestId('line-0');
  return user;
}

describe('a resumed draft', () => {
  it('keeps GeoJSON that does not parse in the form, says so, and leaves the stored plots alone', async () => {
    server.on('PATCH', '/api/eudr/raw-materials/7/', ok(DRAFT));
    await openMaterialsStep();
    // The stored plots are on the map.
    expect(screen.getByTestId('map-plot-2')).toHaveTextContent('Laibin');
    const text = screen.getByTestId('field-geojson');
    fireEvent.change(text, { target: { value: '{ "type": "FeatureCollection", "features": [ ' } });
    fireEvent.click(screen.getByTestId('save-draft'));

    expect(await screen.findByText(/Draft saved without the plots/)).toBeInTheDocument();
    expect(await screen.findByText('This is not valid JSON.')).toBeInTheDocument();
    expect(screen.getByTestId('field-geojson')).toHaveValue('{ "type": "FeatureCollection", "features": [ ');
    const patch = server.requests.find((r) => r.method === 'PATCH');
    const body = JSON.parse(String(patch?.data)) as Record<string, unknown>;
    expect(body.is_draft).toBe(true);
    expect(body.delivery_number).toBe('SEP-DN-7');
    expect('location_geojson' in body).toBe(false);
    expect(screen.queryByText('Draft saved')).not.toBeInTheDocument();
  }, 60_000);

  it('does not go on to the review with GeoJSON that does not parse', async () => {
    const user = await openMaterialsStep();
    fireEvent.change(screen.getByTestId('field-geojson'), { target: { value: '{ nope' } });
    await user.click(screen.getByTestId('wizard-next'));
    expect(await screen.findByText('This is not valid JSON.')).toBeInTheDocument();
    expect(screen.queryByTestId('wizard-create')).not.toBeInTheDocument();
    expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  }, 60_000);

  it('parses the delivery file stored on the server', async () => {
    const csv = 'material_type,weight_kg\npaper,300\n';
    server.on('GET', '/api/eudr/raw-materials/7/files/delivery_file/', {
      status: 200,
      data: new Blob([csv], { type: 'text/csv' }),
      headers: { 'content-disposition': 'attachment; filename="SEP-DN-7.csv"' },
    });
    server.on('POST', '/api/eudr/raw-materials/parse-delivery-file/', (config) => {
      const file = (config.data as FormData).get('file') as File;
      expect(file.name).toBe('SEP-DN-7.csv');
      return ok({
        header: {},
        rows: 2,
        errors: [],
        lines: [
          { row: 2, material_type: 'paper', weight_kg: '300', pulp_type: 'virgin', pulp_brand: 'Kraft', scientific_names: ['Pinus massoniana'], common_names: [] },
          { row: 3, material_type: 'pulp', weight_kg: '80', pulp_type: '', pulp_brand: '', scientific_names: [], common_names: [] },
        ],
      });
    });
    const user = await openMaterialsStep();
    await user.click(screen.getByTestId('parse-delivery-file'));
    // Lines are already there: the user confirms replacing them.
    await user.click(await screen.findByRole('button', { name: 'Replace' }));
    expect(await screen.findByText('2 materials read from the delivery file')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('line-1')).toBeInTheDocument());
    expect(screen.queryByText('Delivery file is required (parse)')).not.toBeInTheDocument();
    expect(server.count('GET', '/api/eudr/raw-materials/7/files/delivery_file/')).toBe(1);
  }, 60_000);
});
