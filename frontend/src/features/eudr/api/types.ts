/**
 * Payloads of the EUDR endpoints (issue "EUDR traceability I"; the names are the API contract for
 * outside clients). Decimal values arrive as strings.
 */

export type RawMaterialStatus = 'draft' | 'active' | 'inactive' | 'expired';

export type FileKind =
  | 'delivery_file'
  | 'vendor_certificate'
  | 'sc_invoice'
  | 'forest_supplier_certificate'
  | 'logging_license'
  | 'location_file';

export const FILE_KINDS: readonly FileKind[] = [
  'delivery_file',
  'vendor_certificate',
  'sc_invoice',
  'forest_supplier_certificate',
  'logging_license',
  'location_file',
];

export interface MaterialLine {
  id?: number;
  material_type: string;
  weight_kg: string;
  pulp_type: string;
  pulp_brand: string;
  scientific_names: string[];
  common_names: string[];
}

export interface Weight {
  original_kg: string;
  loss_kg: string;
  available_kg: string;
  used_kg: string;
  remaining_kg: string;
}

export interface ParentVendorSummary {
  id: number;
  name: string;
  cname?: string;
  code?: string;
}

export interface StoredFile {
  name: string;
  size: number | null;
  content_type?: string;
  uploaded_at?: string | null;
  url?: string | null;
}

export interface CapApproval {
  id: number;
  extra_cartons: number;
  reason: string;
  approved_by: { id: number; name: string };
  approved_at: string;
}

export interface DeliveryCheck {
  key: string;
  message: string;
}

export interface RawMaterial {
  id: number;
  parent_vendor: number | null;
  parent_vendor_name: string;
  parent_vendor_cname: string;
  is_draft: boolean;
  delivery_number: string;
  document_from: string;
  description: string;
  status: RawMaterialStatus;
  country_code: string;
  country_name: string;
  lines: MaterialLine[];
  forest_supplier_name: string;
  fm_certification_type: string;
  fm_certificate_number?: string;
  fm_certificate_expiry?: string | null;
  coc_certification: string;
  coc_certificate_number?: string;
  coc_certificate_expiry?: string | null;
  material_sc_number: string;
  harvest_begin_month: string;
  harvest_end_month: string;
  location_geojson: GeoJsonObject | null;
  upstream_dds_reference?: string;
  upstream_dds_verification?: string;
  /** The tenant's filed statement (empty until recorded); the verification number is empty for suppliers. */
  dds_reference_number?: string;
  dds_verification_number?: string;
  dds_filed_at?: string | null;
  dds_filed_by_name?: string;
  geolocation_confidential?: boolean;
  min_consumption_per_carton: string;
  loss_rate_percent: string;
  allowed_carton_cap: number | null;
  approved_over_cap: number;
  issued_cartons: number;
  remaining_cartons: number | null;
  submitted_at: string | null;
  cap_approvals?: CapApproval[];
  policy_source: string;
  lines_count: number;
  created_at: string;
  updated_at: string;
  weight: Weight;
  files: Partial<Record<FileKind, StoredFile>>;
  checks: DeliveryCheck[];
}

export interface GeoJsonObject {
  type: string;
  [key: string]: unknown;
}

/** The wizard's values as sent to the server (create, draft, submit). */
export interface RawMaterialInput {
  parent_vendor: number | null;
  delivery_number: string;
  document_from: string;
  description: string;
  country_code: string;
  country_name: string;
  forest_supplier_name: string;
  fm_certification_type: string;
  fm_certificate_number: string;
  fm_certificate_expiry: string | null;
  coc_certification: string;
  coc_certificate_number: string;
  coc_certificate_expiry: string | null;
  material_sc_number: string;
  harvest_begin_month: string;
  harvest_end_month: string;
  upstream_dds_reference: string;
  upstream_dds_verification: string;
  geolocation_confidential: boolean;
  /** Left out when a draft is saved with plots that are not valid JSON (the stored plots are kept). */
  location_geojson?: GeoJsonObject | null;
  lines: MaterialLine[];
  /** Save as a draft (no required fields) instead of submitting. */
  is_draft?: boolean;
}

export interface ProductionBatch {
  id: number;
  delivery: number;
  production_batch_code: string;
  production_date: string | null;
  product: number;
  product_name: string;
  article_number: string;
  purchase_order_line: number;
  purchase_order: string;
  purchase_order_id: number;
  container: string;
  net_weight_per_carton_kg: string;
  carton_count: number;
  used_kg: string;
  created_by_name: string;
  created_at: string;
  updated_at: string;
}

export interface CartonLabel {
  id: number;
  code: string;
  qr_url: string;
  production_batch_code: string;
  batch_sequence: number;
  article_number: string;
  purchase_order: string | null;
  container: string;
  raw_material: number;
  delivery_number: string;
  product: number;
  product_name: string;
  purchase_order_line: number;
  batch: number;
  net_weight_kg: string;
  status: 'active' | 'voided';
  created_at: string;
  voided_at: string | null;
}

export interface GenerateCartonsInput {
  count: number;
  production_batch_code: string;
  product: number;
  purchase_order_line: number;
  container?: string;
}

export interface GenerateCartonsResult {
  generated: number;
  batch: ProductionBatch;
  delivery: RawMaterial;
}

export interface BulkDeleteResult {
  deleted: number;
  returned_kg: string;
}

export interface SupplierPolicy {
  id: number;
  /** Null: the tenant-wide default policy. */
  parent_vendor: number | null;
  parent_vendor_name: string;
  /** Empty: every material of the vendor. */
  material_type: string;
  min_consumption_per_carton: string;
  loss_rate_percent: string;
  /** Cartons that may be labelled beyond a purchase order line's ordered quantity, in percent of it. */
  order_tolerance_percent: string;
  cap_mode: 'by_weight' | 'fixed' | 'none';
  cap_value: number | null;
  valid_from: string;
  is_active: boolean;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface ParsedLine {
  row: number;
  material_type: string;
  weight_kg: string | null;
  pulp_type: string;
  pulp_brand: string;
  scientific_names: string[];
  common_names: string[];
}

export interface ParsedDeliveryFile {
  header: Record<string, string>;
  lines: ParsedLine[];
  errors: { row: number | null; field: string; message: string }[];
  rows: number;
}

/** GeoJSON validation and packaging checks (issue "EUDR traceability II"). */
export interface GeoJsonProblem {
  feature: number | null;
  code: string;
  message: string;
  severity: 'error' | 'warning';
  position?: number[] | null;
}

export interface GeoJsonValidation {
  valid: boolean;
  error_count: number;
  warning_count: number;
  problems: GeoJsonProblem[];
  feature_collection: GeoJsonObject | null;
  areas_ha: (number | null)[];
  total_area_ha: number;
}

export interface DdsCheck {
  code: string;
  message: string;
  severity: 'error' | 'warning';
  feature: number | null;
}

export interface DdsChecks {
  ready: boolean;
  errors: DdsCheck[];
  warnings: DdsCheck[];
}

export interface DdsJob {
  id: string;
  delivery: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: { done: number; total: number; step: string };
  warnings: DdsCheck[];
  errors: DdsCheck[];
  message: string;
  file_name: string;
  size: number | null;
  created_at: string;
  finished_at: string | null;
  download_url: string | null;
}
