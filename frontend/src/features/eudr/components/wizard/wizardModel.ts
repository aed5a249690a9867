/**
 * The wizard's form values and their mapping to and from the API (a draft is a delivery with status
 * `draft`; submitting validates it as a create). Pure functions, unit-tested.
 */
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import type { FileKind, GeoJsonObject, MaterialLine, RawMaterial, RawMaterialInput, StoredFile } from '../../api/types';
import { basicInfoErrors, materialErrors } from '../../lib/validation';

export interface FileValue {
  /** A file chosen in this session, uploaded on save. */
  file?: File;
  /** The file already stored on the server. */
  stored?: StoredFile;
  /** The stored file is removed on save. */
  remove?: boolean;
}

export interface LineValue {
  material_type?: MaterialLine['material_type'];
  weight_kg?: string | number | null;
  pulp_type?: MaterialLine['pulp_type'];
  pulp_brand?: string;
  scientific_names?: string[];
  common_names?: string[];
}

export interface WizardValues {
  parent_vendor?: number | null;
  delivery_number?: string;
  document_from?: string;
  description?: string;
  country_code?: string;
  forest_supplier_name?: string;
  fm_certification_type?: RawMaterialInput['fm_certification_type'];
  fm_certificate_number?: string;
  fm_certificate_expiry?: Dayjs | null;
  coc_certification?: string;
  coc_certificate_number?: string;
  coc_certificate_expiry?: Dayjs | null;
  material_sc_number?: string;
  harvest_begin_month?: Dayjs | null;
  harvest_end_month?: Dayjs | null;
  upstream_dds_reference?: string;
  upstream_dds_verification?: string;
  geolocation_confidential?: boolean;
  location_geojson_text?: string;
  lines?: LineValue[];
  files?: Partial<Record<FileKind, FileValue | null>>;
}


/** Which step a field lives on, for jumping to a server error. */
export const STEP_OF_FIELD: Record<string, number> = {
  lines: 1,
  location_geojson: 1,
  location_geojson_text: 1,
};

export function stepOfField(field: string): number {
  const root = field.split('.')[0] ?? field;
  return STEP_OF_FIELD[root] ?? 0;
}

const month = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM') : '');
const day = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : null);
const text = (value: string | undefined | null) => (value ?? '').trim();

function weightString(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value).trim();
}

/** Parses the GeoJSON text; empty is null, invalid JSON throws a SyntaxError. */
export function parseGeoJsonText(textValue: string | undefined): GeoJsonObject | null {
  const trimmed = (textValue ?? '').trim();
  if (!trimmed) return null;
  const parsed: unknown = JSON.parse(trimmed);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('not an object');
  return parsed as GeoJsonObject;
}

/** True when the plots' text is there but is not a JSON object (it cannot be sent). */
export function isGeoJsonTextBroken(values: Pick<WizardValues, 'location_geojson_text'>): boolean {
  try {
    parseGeoJsonText(values.location_geojson_text);
    return false;
  } catch {
    return true;
  }
}

/**
 * The wizard's values as the API's input. GeoJSON text that does not parse throws, unless
 * `lenientGeoJson` (saving a draft): then `location_geojson` is left out, so the server keeps the plots
 * it has and the text stays in the form for the user to fix (see `isGeoJsonTextBroken`).
 */
export function toInput(values: WizardValues, { lenientGeoJson = false } = {}): RawMaterialInput {
  let geojson: { location_geojson?: GeoJsonObject | null } = {};
  try {
    geojson = { location_geojson: parseGeoJsonText(values.location_geojson_text) };
  } catch (error) {
    if (!lenientGeoJson) throw error;
  }
  const code = text(values.country_code).toUpperCase();
  return {
    parent_vendor: values.parent_vendor ?? null,
    delivery_number: text(values.delivery_number),
    document_from: text(values.document_from),
    description: text(values.description),
    country_code: code,
    forest_supplier_name: text(values.forest_supplier_name),
    fm_certification_type: values.fm_certification_type ?? '',
    fm_certificate_number: text(values.fm_certificate_number),
    fm_certificate_expiry: day(values.fm_certificate_expiry),
    coc_certification: text(values.coc_certification),
    coc_certificate_number: text(values.coc_certificate_number),
    coc_certificate_expiry: day(values.coc_certificate_expiry),
    material_sc_number: text(values.material_sc_number),
    harvest_begin_month: month(values.harvest_begin_month),
    harvest_end_month: month(values.harvest_end_month),
    upstream_dds_reference: text(values.upstream_dds_reference),
    upstream_dds_verification: text(values.upstream_dds_verification),
    geolocation_confidential: Boolean(values.geolocation_confidential),
    ...geojson,
    lines: (values.lines ?? []).map(
      (line): MaterialLine => ({
        material_type: line.material_type ?? '',
        weight_kg: weightString(line.weight_kg),
        pulp_type: line.pulp_type ?? '',
        pulp_brand: text(line.pulp_brand),
        scientific_names: (line.scientific_names ?? []).map((n) => n.trim()).filter(Boolean),
        common_names: (line.common_names ?? []).map((n) => n.trim()).filter(Boolean),
      }),
    ),
  };
}

function dateValue(value: string | null | undefined): Dayjs | null {
  if (!value) return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed : null;
}

/** A stored delivery (a draft, usually) as the wizard's values. */
export function fromRawMaterial(material: RawMaterial): WizardValues {
  const files: Partial<Record<FileKind, FileValue | null>> = {};
  for (const [kind, stored] of Object.entries(material.files ?? {}) as [FileKind, StoredFile | undefined][]) {
    if (stored) files[kind] = { stored };
  }
  return {
    parent_vendor: material.parent_vendor ?? null,
    delivery_number: material.delivery_number ?? '',
    document_from: material.document_from ?? '',
    description: material.description ?? '',
    country_code: material.country_code || undefined,
    forest_supplier_name: material.forest_supplier_name ?? '',
    fm_certification_type: material.fm_certification_type || undefined,
    fm_certificate_number: material.fm_certificate_number ?? '',
    fm_certificate_expiry: dateValue(material.fm_certificate_expiry),
    coc_certification: material.coc_certification ?? '',
    coc_certificate_number: material.coc_certificate_number ?? '',
    coc_certificate_expiry: dateValue(material.coc_certificate_expiry),
    material_sc_number: material.material_sc_number ?? '',
    harvest_begin_month: dateValue(material.harvest_begin_month ? `${material.harvest_begin_month}-01` : null),
    harvest_end_month: dateValue(material.harvest_end_month ? `${material.harvest_end_month}-01` : null),
    upstream_dds_reference: material.upstream_dds_reference ?? '',
    upstream_dds_verification: material.upstream_dds_verification ?? '',
    geolocation_confidential: Boolean(material.geolocation_confidential),
    location_geojson_text: material.location_geojson ? JSON.stringify(material.location_geojson, null, 2) : '',
    lines: (material.lines ?? []).map((line) => ({
      material_type: line.material_type || undefined,
      weight_kg: line.weight_kg ?? '',
      pulp_type: line.pulp_type || undefined,
      pulp_brand: line.pulp_brand ?? '',
      scientific_names: line.scientific_names ?? [],
      common_names: line.common_names ?? [],
    })),
    files,
  };
}

/** The step a saved draft resumes on: the first one that still has something to fill in. */
export function resumeStep(values: WizardValues): number {
  const basic = basicInfoErrors({
    parent_vendor: values.parent_vendor,
    delivery_number: values.delivery_number,
    harvest_begin_month: month(values.harvest_begin_month),
    harvest_end_month: month(values.harvest_end_month),
  });
  if (Object.keys(basic).length > 0) return 0;
  const materials = materialErrors(values.lines);
  if (materials.list || materials.lines.some((errors) => Object.keys(errors).length > 0)) return 1;
  return 2;
}

/**
 * Server field errors as form field paths: `{lines: [{weight_kg: [..]}, {}]}` becomes
 * `lines.0.weight_kg`; `{delivery_number: [..]}` stays as is.
 */
export function flattenFieldErrors(data: unknown, prefix = ''): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (Array.isArray(data)) {
    if (data.every((item) => typeof item === 'string')) {
      if (prefix) result[prefix] = data;
      return result;
    }
    data.forEach((item, index) => Object.assign(result, flattenFieldErrors(item, prefix ? `${prefix}.${index}` : String(index))));
    return result;
  }
  if (typeof data === 'string') {
    if (prefix) result[prefix] = [data];
    return result;
  }
  if (typeof data === 'object' && data !== null) {
    for (const [key, value] of Object.entries(data)) {
      Object.assign(result, flattenFieldErrors(value, prefix ? `${prefix}.${key}` : key));
    }
  }
  return result;
}

/** Features in a GeoJSON object (a bare geometry or Feature counts as one). */
export function featureCount(geojson: GeoJsonObject | null | undefined): number {
  if (!geojson) return 0;
  return Array.isArray(geojson.features) ? geojson.features.length : 1;
}

/** Server field names that the wizard shows on another form field. */
const FIELD_ALIASES: Record<string, string> = { location_geojson: 'location_geojson_text' };

export function aliasField(name: string): string {
  const [root, ...rest] = name.split('.');
  const alias = root ? FIELD_ALIASES[root] : undefined;
  return alias ? [alias, ...rest].join('.') : name;
}

/** Basic-info fields a parsed delivery file's header may fill (only where the form is still empty). */
export const HEADER_FIELDS = [
  'delivery_number',
  'document_from',
  'description',
  'country_code',
  'forest_supplier_name',
  'fm_certification_type',
  'fm_certificate_number',
  'coc_certification',
  'coc_certificate_number',
  'material_sc_number',
  'upstream_dds_reference',
  'upstream_dds_verification',
] as const;

/** What saving does with the documents: uploads of newly chosen files, removals of stored ones. */
export function fileChanges(files: WizardValues['files']): { uploads: [FileKind, File][]; removals: FileKind[] } {
  const uploads: [FileKind, File][] = [];
  const removals: FileKind[] = [];
  for (const [kind, value] of Object.entries(files ?? {}) as [FileKind, FileValue | null | undefined][]) {
    if (value?.file) uploads.push([kind, value.file]);
    else if (value?.remove && value.stored) removals.push(kind);
  }
  return { uploads, removals };
}

/** The stored documents as form values (after a save). */
export function storedFiles(material: Pick<RawMaterial, 'files'>): Partial<Record<FileKind, FileValue | null>> {
  return Object.fromEntries(Object.entries(material.files ?? {}).map(([kind, file]) => [kind, { stored: file }]));
}

export const WIZARD_STEPS = ['basic', 'materials', 'review'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** `?step=` of the edit form (a step's key or index) as a step index; unknown values start at 0. */
export function stepFromParam(param: string | null): number {
  if (!param) return 0;
  const byKey = WIZARD_STEPS.indexOf(param as WizardStep);
  if (byKey >= 0) return byKey;
  const index = Number(param);
  return Number.isInteger(index) && index >= 0 && index < WIZARD_STEPS.length ? index : 0;
}

/** DDS check codes fixed on the material details step (species, weight, plots). */
const MATERIAL_CHECKS = new Set(['species_missing', 'common_name_missing', 'net_weight_missing']);
/** DDS check codes fixed on the basic info step (origin, harvest, certificates, upstream DDS, documents). */
const BASIC_CHECKS = new Set([
  'country_missing',
  'producer_missing',
  'harvest_period_missing',
  'harvest_period_reversed',
  'harvest_before_cutoff',
  'certificate_expired',
  'fm_certificate_expired',
  'coc_certificate_expired',
  'upstream_dds_incomplete',
  'upstream_dds_invalid',
  'no_documents',
]);

/**
 * The wizard step where a DDS check (or a delivery check) is fixed, or null when the delivery's form
 * cannot fix it (company settings, products, cartons, the delivery's status).
 */
export function stepOfCheck(code: string): number | null {
  if (MATERIAL_CHECKS.has(code) || code.startsWith('geolocation_')) return 1;
  if (BASIC_CHECKS.has(code)) return 0;
  return null;
}
