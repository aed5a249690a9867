import type { RawMaterial } from '../api/types';

/** A submitted delivery of Shanghai Evergreen (id 4) as the API answers it; override what a test needs. */
export function deliveryFixture(overrides: Partial<RawMaterial> = {}): RawMaterial {
  return {
    id: 12,
    parent_vendor: 4,
    parent_vendor_name: 'Shanghai Evergreen Packaging',
    parent_vendor_cname: '上海常青包装',
    is_draft: false,
    delivery_number: 'SEP-DN-1',
    document_from: 'Guangxi Sun Paper',
    description: '',
    status: 'active',
    country_code: 'CN',
    country_name: 'China',
    lines: [{ id: 1, material_type: 'paper', weight_kg: '500.000', pulp_type: 'virgin', pulp_brand: '', scientific_names: [], common_names: [] }],
    forest_supplier_name: 'Gaofeng Forest Farm',
    fm_certification_type: 'FSC',
    fm_certificate_number: 'FSC-C1',
    fm_certificate_expiry: '2030-01-31',
    coc_certification: 'FSC Mix',
    coc_certificate_number: 'COC-1',
    coc_certificate_expiry: '2030-01-31',
    material_sc_number: '',
    harvest_begin_month: '2024-03',
    harvest_end_month: '2024-08',
    location_geojson: null,
    upstream_dds_reference: '',
    upstream_dds_verification: '',
    geolocation_confidential: false,
    files: {},
    checks: [],
    min_consumption_per_carton: '0.350',
    loss_rate_percent: '3.00',
    allowed_carton_cap: null,
    approved_over_cap: 0,
    issued_cartons: 0,
    remaining_cartons: null,
    policy_source: 'Shanghai Evergreen Packaging · paper',
    lines_count: 1,
    submitted_at: '2026-11-20T10:00:00Z',
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    cap_approvals: [],
    weight: { original_kg: '500.000', loss_kg: '15.000', available_kg: '485.000', used_kg: '0.000', remaining_kg: '485.000' },
    ...overrides,
  };
}

export const PLOTS = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { ProducerName: 'Gaofeng', ProducerCountry: 'CN' },
      geometry: { type: 'Polygon', coordinates: [[[108.41, 22.95], [108.42, 22.95], [108.42, 22.96], [108.41, 22.95]]] },
    },
    { type: 'Feature', properties: { ProducerName: 'Laibin', Area: 3.2 }, geometry: { type: 'Point', coordinates: [109.28, 23.75] } },
  ],
};
