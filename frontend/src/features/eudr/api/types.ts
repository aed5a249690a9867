/**
 * Payloads of the EUDR endpoints (backend apps/eudr/api/serializers.py), from the generated schema; the
 * names are the API contract for outside clients. Decimal values arrive as strings. Where the schema is
 * looser than the payload (plots typed as any JSON, files keyed by any string) the type says more here.
 */
import type { components } from '@/api/schema';

type S = components['schemas'];

export type RawMaterialStatus = S['RawMaterialStatusEnum'];

/** The documents of a delivery: the `{kind}` of `raw-materials/{id}/files/{kind}/`. */
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

export interface GeoJsonObject {
  type: string;
  [key: string]: unknown;
}

export type MaterialLine = S['RawMaterialLineRequest'] & { id?: number };
export type Weight = S['Weight'];
export type ParentVendorSummary = Pick<S['ParentVendor'], 'id' | 'name' | 'cname' | 'code'>;
export type StoredFile = S['FileInfo'];
export type CapApproval = S['CapApproval'];
export type DeliveryCheck = S['Check'];

/** A delivery as the list returns it: its summary (the detail has the lines, plots, files and checks). */
export type RawMaterialListItem = S['RawMaterialDeliveryListItem'];

/** A delivery as its page returns it (`cap_approvals` only in the detail). */
export type RawMaterial = Omit<S['RawMaterialDeliveryDetail'], 'location_geojson' | 'files' | 'cap_approvals' | 'outside_country'> & {
  location_geojson?: GeoJsonObject | null;
  files: Partial<Record<FileKind, StoredFile>>;
  cap_approvals?: CapApproval[];
  outside_country?: OutsideCountry;
};

/** The plots lying outside their country of production and their confirmation (detail only). */
export type OutsideCountry = S['OutsideCountry'];

/** The wizard's values as sent to the server (create, draft, submit); `is_draft: true` saves a draft.
 * `location_geojson` is left out when a draft is saved with plots that are not valid JSON (the stored
 * plots are kept). */
export type RawMaterialInput = Omit<S['RawMaterialDeliveryDetailRequest'], 'location_geojson' | 'lines'> & {
  location_geojson?: GeoJsonObject | null;
  lines: MaterialLine[];
};

export type ProductionBatch = S['ProductionBatch'];
export type CartonLabel = S['CartonLabel'];
export type GenerateCartonsInput = S['GenerateCartonsRequest'];
export type GenerateCartonsResult = Omit<S['GenerateCartonsResult'], 'delivery'> & { delivery: RawMaterial };
export type BulkDeleteResult = S['BulkDeleteResult'];
export type GenerationLimit = S['GenerationLimit'];
export type GenerationBinding = NonNullable<GenerationLimit['binding']>;
export type SupplierPolicy = S['SupplierPolicy'];
export type ParsedLine = S['DeliveryFileLine'];
export type ParsedDeliveryFile = S['DeliveryFileParse'];

/** GeoJSON validation and packaging checks. */
export type GeoJsonProblem = S['GeoProblem'];
export type GeoJsonValidation = Omit<S['GeoValidation'], 'feature_collection'> & {
  feature_collection: GeoJsonObject | null;
};
export type DdsCheck = S['DdsCheck'];
export type DdsChecks = S['Checks'];
export type DdsJob = S['DdsJob'];
