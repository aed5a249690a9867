/**
 * The import actions every importable list offers (backend apps/common/imports.py):
 * `GET <list>/import-template/?format=`, `POST <list>/import/?dry_run=1` and `POST <list>/import/`.
 * An upload starts a background job (answered at once); `GET /api/common/imports/{id}/` reports its
 * progress and, when it has finished, the same counts and row errors as the report of a dry run.
 * `GET /api/common/imports/?kind=&status=` lists the jobs, so a dialog opened while an import of its kind
 * runs (started in another tab, or before a reload) follows that job instead of offering a new one.
 * A stuck or failed job (`can_retry`) is started again from its stored file with `POST .../retry/` (a new
 * job, `retry_of` the old one); a queued or stuck job (`can_cancel`) is cancelled with `POST .../cancel/`.
 */
import { download, get, post } from '@/api/http';
import type { components } from '@/api/schema';
import { saveBlob } from '@/shared/utils/saveFile';

export type ImportFileFormat = 'csv' | 'xlsx';
export const IMPORT_FILE_FORMATS: readonly ImportFileFormat[] = ['csv', 'xlsx'];
export const IMPORT_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Mirrors the server's limit (MAX_IMPORT_BYTES) so a too-large file is refused before uploading. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export type ImportJob = components['schemas']['ImportJob'];
type ImportJobPage = components['schemas']['PaginatedImportJobList'];
export type ImportRowError = components['schemas']['ImportRowError'];
export type ImportJobPhase = components['schemas']['ImportJobPhaseEnum'];

/** The counts and row errors of a dry run or an import: a finished job carries them under these names. */
export type ImportReport = Pick<
  ImportJob,
  | 'dry_run'
  | 'rows_total'
  | 'rows_valid'
  | 'rows_invalid'
  | 'to_create'
  | 'to_update'
  | 'created'
  | 'updated'
  | 'errors'
  | 'errors_truncated'
  | 'ignored_columns'
>;

/** How often a running job is asked for its progress. */
export const IMPORT_POLL_MS = 1000;

export async function downloadImportTemplate(endpoint: string, format: ImportFileFormat, stem: string): Promise<void> {
  const file = await download(`${endpoint}import-template/`, { params: { format } });
  saveBlob(file.blob, file.fileName ?? `${stem}-import-template.${format}`);
}

export async function exportList(endpoint: string, format: ImportFileFormat, stem: string): Promise<void> {
  const file = await download(`${endpoint}export/`, { params: { format } });
  saveBlob(file.blob, file.fileName ?? `${stem}.${format}`);
}

/** Uploads the file; the server checks it quickly and answers with the queued job (HTTP 202). */
export function startImport(
  endpoint: string,
  file: File,
  options: { dryRun: boolean; onUploadProgress?: (percent: number) => void },
): Promise<ImportJob> {
  const body = new FormData();
  body.append('file', file);
  return post<ImportJob>(`${endpoint}import/`, body, {
    params: options.dryRun ? { dry_run: 1 } : undefined,
    onUploadProgress: (event) => {
      if (event.total) options.onUploadProgress?.(Math.round((event.loaded / event.total) * 100));
    },
  });
}

export function getImportJob(id: number): Promise<ImportJob> {
  return get<ImportJob>(`/api/common/imports/${id}/`);
}

/** Starts a stuck or failed job's file again: answers with the new job (HTTP 202). */
export function retryImport(id: number): Promise<ImportJob> {
  return post<ImportJob>(`/api/common/imports/${id}/retry/`);
}

/** Cancels a queued or stuck job (409 `import_running` while a worker writes it): answers with the job. */
export function cancelImport(id: number): Promise<ImportJob> {
  return post<ImportJob>(`/api/common/imports/${id}/cancel/`);
}

/** The newest import (not a dry run) of this kind that is queued or running in the tenant, if any. */
export async function findRunningImport(kind: string): Promise<ImportJob | null> {
  const page = await get<ImportJobPage>('/api/common/imports/', {
    params: { kind, status: 'queued,running', dry_run: false, page_size: 1 },
  });
  return page.results[0] ?? null;
}

export function isImportFinished(job: Pick<ImportJob, 'status'>): boolean {
  return job.status === 'done' || job.status === 'failed' || job.status === 'cancelled';
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Uploads the file and follows its import job until it is done or failed: `onJob` sees every state
 * (for the progress bar). Resolves with the finished job; rejects when the upload is refused (an
 * ApiError with the server's error key) or `signal` aborts the polling (the import goes on on the server).
 */
export async function runImport(
  endpoint: string,
  file: File,
  options: {
    dryRun: boolean;
    onUploadProgress?: (percent: number) => void;
    onJob?: (job: ImportJob) => void;
    signal?: AbortSignal;
    pollMs?: number;
  },
): Promise<ImportJob> {
  const job = await startImport(endpoint, file, options);
  return followImport(job, options);
}

/** Follows a job until it is done or failed (`onJob` sees every state); resolves with the finished job. */
export async function followImport(
  started: ImportJob,
  options: { onJob?: (job: ImportJob) => void; signal?: AbortSignal; pollMs?: number },
): Promise<ImportJob> {
  let job = started;
  options.onJob?.(job);
  while (!isImportFinished(job)) {
    await wait(options.pollMs ?? IMPORT_POLL_MS, options.signal);
    job = await getImportJob(job.id);
    options.onJob?.(job);
  }
  return job;
}

/** A failed job with row errors: its report lists them (nothing was written). */
export function isRejectedWithRowErrors(job: ImportJob): boolean {
  return job.status === 'failed' && job.errors.length > 0;
}
