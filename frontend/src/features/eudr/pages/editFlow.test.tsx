import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import { deliveryFixture } from '../test/fixtures';
import { renderAt } from '../test/harness';
import RawMaterialDetailPage from './RawMaterialDetailPage';
import RawMaterialEditPage from './RawMaterialEditPage';

vi.mock('@/shared/map/LazyPlotMap', () => import('../test/mapStub'));

const ALL = [
  'eudr.view_rawmaterialdelivery',
  'eudr.change_rawmaterialdelivery',
  'eudr.delete_rawmaterialdelivery',
  'eudr.add_cartonlabel',
  'eudr.delete_cartonlabel',
];

let server: MockServer;

const EXPIRED = deliveryFixture({
  status: 'expired',
  fm_certificate_expiry: '2026-01-31',
  lines: [{ id: 1, material_type: 'paper', weight_kg: '500.000', pulp_type: 'virgin', pulp_brand: '', scientific_names: [], common_names: [] }],
  files: { vendor_certificate: { name: 'old-certificate.pdf', size: 2048, content_type: 'application/pdf', uploaded_at: '', url: '' } },
  checks: [{ key: 'fm_certificate_expired', message: 'The FM certificate expired on 2026-01-31.' }],
});

function asInternal(permissions = ALL) {
  signIn({ tenant: '3', user: makeUser({ permissions }) });
}

function asSupplier(permissions = ALL) {
  signIn({ tenant: '3', user: makeUser({ is_supplier: true, parent_vendor: { id: 4, name: 'Shanghai Evergreen Packaging', cname: '' }, permissions }) });
}

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/eudr/raw-materials/12/', ok(EXPIRED));
  server.on('GET', '/api/suppliers/parent-vendors/', ok({ count: 1, next: null, previous: null, results: [{ id: 4, name: 'Shanghai Evergreen Packaging', cname: '' }] }));
  server.on(
    'GET',
    '/api/eudr/raw-materials/12/dds-package/checks/',
    ok({
      ready: false,
      errors: [
        { code: 'species_missing', message: "The species' scientific name is missing.", severity: 'error', feature: null },
        { code: 'certificate_expired', message: 'The FM certificate has expired.', severity: 'error', feature: null },
        { code: 'operator_name_missing', message: "The operator's name is missing (company settings).", severity: 'error', feature: null },
      ],
      warnings: [],
    }),
  );
  server.on('GET', '/api/eudr/raw-materials/12/batches/', ok({ count: 0, next: null, previous: null, results: [] }));
  server.on('GET', '/api/eudr/cartons/', ok({ count: 0, next: null, previous: null, results: [] }));
});

afterEach(() => server.restore());

describe('editing a submitted delivery', () => {
  it('lists what the DDS package misses, fixes the species, removes a document and brings the delivery back', async () => {
    asInternal();
    const user = userEvent.setup({ delay: null });
    server.on('PATCH', '/api/eudr/raw-materials/12/', (config) => ok({ ...EXPIRED, ...(JSON.parse(String(config.data)) as object), status: 'active', checks: [] }));
    server.on('DELETE', '/api/eudr/raw-materials/12/files/vendor_certificate/', ok({ ...EXPIRED, status: 'active', checks: [], files: {} }));
    const { router } = renderAt('/purchase/eudr/raw-materials/12/edit?step=materials', '/purchase/eudr/raw-materials/:id/edit', <RawMaterialEditPage />);

    // Opens on the step asked for, with the DDS checks and where each is fixed.
    await screen.findByTestId('line-0');
    const fixes = await screen.findByTestId('dds-fix-list');
    expect(fixes).toHaveTextContent("The species' scientific name is missing.");
    expect(within(fixes).getByTestId('fix-species_missing')).toHaveTextContent('Material details');
    expect(within(fixes).getByTestId('fix-certificate_expired')).toHaveTextContent('Basic info');
    expect(within(fixes).queryByTestId('fix-operator_name_missing')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Species (scientific names)'), 'Pinus massoniana{Enter}');

    // Every step is reachable: the documents are on the first.
    await user.click(within(fixes).getByTestId('fix-certificate_expired'));
    expect(await screen.findByText('The parent vendor cannot change once the delivery is submitted.')).toBeInTheDocument();
    await user.click(screen.getByTestId('file-vendor_certificate-remove'));
    expect(screen.getByText('removed when you save')).toBeInTheDocument();

    await user.click(screen.getByTestId('edit-save'));
    expect(await screen.findByText('Saved. The certificates are valid again: the delivery is active.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/purchase/eudr/raw-materials/12'));

    const patch = server.requests.find((r) => r.method === 'PATCH');
    const body = JSON.parse(String(patch?.data)) as { is_draft?: boolean; lines: { scientific_names: string[] }[]; location_geojson: unknown; parent_vendor: number };
    expect(body.is_draft).toBeUndefined();
    expect(body.lines[0]?.scientific_names).toEqual(['Pinus massoniana']);
    expect(body.parent_vendor).toBe(4);
    expect(body.location_geojson).toBeNull();
    expect(server.count('DELETE', '/api/eudr/raw-materials/12/files/vendor_certificate/')).toBe(1);
  }, 60_000);

  it('shows the server refusal on its field and stays on the form', async () => {
    asSupplier();
    const user = userEvent.setup({ delay: null });
    server.on('PATCH', '/api/eudr/raw-materials/12/', fail(400, 'Invalid input.', 'validation_error', { delivery_number: ['This parent vendor already has a delivery with this number.'] }));
    const { router } = renderAt('/supplier/raw-materials/12/edit?step=review', '/supplier/raw-materials/:id/edit', <RawMaterialEditPage />);
    await user.click(await screen.findByTestId('edit-save'));
    expect(await screen.findByText('This parent vendor already has a delivery with this number.')).toBeInTheDocument();
    expect(screen.getByTestId('field-delivery-number')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/supplier/raw-materials/12/edit');
    expect(server.requests.filter((r) => r.method === 'DELETE' || r.method === 'POST')).toHaveLength(0);
  }, 60_000);

  it('is refused to a user without the change permission', async () => {
    asSupplier(['eudr.view_rawmaterialdelivery']);
    renderAt('/supplier/raw-materials/12/edit', '/supplier/raw-materials/:id/edit', <RawMaterialEditPage />);
    expect(await screen.findByText('You may not change raw-material deliveries.')).toBeInTheDocument();
    expect(screen.queryByTestId('raw-material-wizard')).not.toBeInTheDocument();
  });
});

describe('the delivery page', () => {
  it('offers edit and delete (with a confirmation) to a user who may', async () => {
    asSupplier();
    const user = userEvent.setup({ delay: null });
    server.on('DELETE', '/api/eudr/raw-materials/12/', ok(null));
    const { router } = renderAt('/supplier/raw-materials/12', '/supplier/raw-materials/:id', <RawMaterialDetailPage />);
    await screen.findByTestId('detail-title');
    expect(screen.getByTestId('edit-delivery')).toBeInTheDocument();
    // The delivery's checks link to the step that fixes them.
    await user.click(screen.getByTestId('fix-checks'));
    expect(router.state.location.pathname).toBe('/supplier/raw-materials/12/edit');
    await router.navigate('/supplier/raw-materials/12');

    await user.click(await screen.findByTestId('delete-delivery'));
    expect(await screen.findByText('Delivery SEP-DN-1 and its documents are deleted. This cannot be undone.')).toBeInTheDocument();
    expect(server.count('DELETE', '/api/eudr/raw-materials/12/')).toBe(0);
    await user.click(screen.getByTestId('confirm-delete-delivery'));
    await waitFor(() => expect(server.count('DELETE', '/api/eudr/raw-materials/12/')).toBe(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/supplier/raw-materials'));
  }, 60_000);

  it('hides edit and delete from a user who may not change or delete', async () => {
    asSupplier(['eudr.view_rawmaterialdelivery', 'eudr.add_cartonlabel']);
    renderAt('/supplier/raw-materials/12', '/supplier/raw-materials/:id', <RawMaterialDetailPage />);
    await screen.findByTestId('detail-title');
    await waitFor(() => expect(server.count('GET', '/api/eudr/raw-materials/12/batches/')).toBe(1));
    expect(screen.queryByTestId('edit-delivery')).not.toBeInTheDocument();
    expect(screen.queryByTestId('delete-delivery')).not.toBeInTheDocument();
    expect(screen.queryByTestId('fix-checks')).not.toBeInTheDocument();
  });

  it('offers recording the filed statement only to internal users with the change permission', async () => {
    asInternal();
    const first = renderAt('/purchase/eudr/raw-materials/12', '/purchase/eudr/raw-materials/:id', <RawMaterialDetailPage />);
    expect(await screen.findByTestId('filed-none')).toHaveTextContent('Not filed yet');
    expect(screen.getByTestId('filed-record')).toHaveTextContent('Record filed statement');
    first.unmount();

    asInternal(['eudr.view_rawmaterialdelivery']);
    const second = renderAt('/purchase/eudr/raw-materials/12', '/purchase/eudr/raw-materials/:id', <RawMaterialDetailPage />);
    expect(await screen.findByTestId('filed-none')).toBeInTheDocument();
    expect(screen.queryByTestId('filed-record')).not.toBeInTheDocument();
    second.unmount();

    server.on('GET', '/api/eudr/raw-materials/12/', ok({ ...EXPIRED, dds_reference_number: '25NLSN6LX69730', dds_verification_number: '' }));
    asSupplier();
    renderAt('/supplier/raw-materials/12', '/supplier/raw-materials/:id', <RawMaterialDetailPage />);
    expect(await screen.findByTestId('filed-reference')).toHaveTextContent('25NLSN6LX69730');
    expect(screen.queryByTestId('filed-verification')).not.toBeInTheDocument();
    expect(screen.queryByTestId('filed-record')).not.toBeInTheDocument();
  });

  it('says plainly that another vendor\'s delivery is not found', async () => {
    asSupplier();
    server.on('GET', '/api/eudr/raw-materials/99/', fail(404, 'Not found.', 'not_found'));
    renderAt('/supplier/raw-materials/99', '/supplier/raw-materials/:id', <RawMaterialDetailPage />);
    expect(await screen.findByTestId('delivery-not-found')).toHaveTextContent('Delivery not found');
    expect(screen.queryByTestId('detail-title')).not.toBeInTheDocument();
  });

  it('never offers delete for a delivery with cartons', async () => {
    asInternal();
    server.on('GET', '/api/eudr/raw-materials/12/', ok(deliveryFixture({ issued_cartons: 3 })));
    renderAt('/purchase/eudr/raw-materials/12', '/purchase/eudr/raw-materials/:id', <RawMaterialDetailPage />);
    await screen.findByTestId('detail-title');
    expect(screen.getByTestId('edit-delivery')).toBeInTheDocument();
    expect(screen.queryByTestId('delete-delivery')).not.toBeInTheDocument();
  });
});
