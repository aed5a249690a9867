/**
 * The import actions every importable list offers (backend apps/common/imports.py):
 * `GET <list>/import-template/?format=`, `POST <list>/import/?dry_run=1` and `POST <list>/import/`.
 */
import { download, post } from '@/api/http';
import { isApiError } from '@/api/errors';
import { saveBlob } from '@/shared/utils/saveFile';

export type ImportFileFormat = 'csv' | 'xlsx';
export const IMPORT_FILE_FORMATS: readonly ImportFileFormat[] = ['csv', 'xlsx'];
export const IMPORT_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Mirrors the server's limit (MAX_IMPORT_BYTES) so a too-large file is refused before uploading. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export interface ImportRowError {
  row: number;
  field: string;
  column: string;
  message: string;
}

export interface ImportReport {
  dry_run: boolean;
  rows_total: number;
  rows_valid: number;
  rows_invalid: number;
  to_create: number;
  to_update: number;
  created: number;
  updated: number;
  errors: ImportRowError[];
  errors_truncated: boolean;
  ignored_columns: string[];
}

export async function downloadImportTemplate(endpoint: string, format: ImportFileFormat, stem: string): Promise<void> {
  const file = await download(`${endpoint}import-template/`, { params: { format } });
  saveBlob(file.blob, file.fileName ?? `${stem}-import-template.${format}`);
}

export async function exportList(endpoint: string, format: ImportFileFormat, stem: string): Promise<void> {
  const file = await download(`${endpoint}export/`, { params: { format } });
  saveBlob(file.blob, file.fileName ?? `${stem}.${format}`);
}

export function uploadImport(
  endpoint: string,
  file: File,
  options: { dryRun: boolean; onProgress?: (percent: number) => void },
): Promise<ImportReport> {
  const body = new FormData();
  body.append('file', file);
  return post<ImportReport>(`${endpoint}import/`, body, {
    params: options.dryRun ? { dry_run: 1 } : undefined,
    onUploadProgress: (event) => {
      if (event.total) options.onProgress?.(Math.round((event.loaded / event.total) * 100));
    },
  });
}

/** A rejected commit carries the report with the row errors in its `data`. */
export function reportOfError(error: unknown): ImportReport | null {
  if (!isApiError(error) || error.error !== 'import_rejected') return null;
  const data = error.data as Partial<ImportReport> | null;
  return data && Array.isArray(data.errors) ? (data as ImportReport) : null;
}
