/**
 * Printing carton labels on a label printer (POST /api/printing/jobs/), shared by every labels table
 * (EUDR raw materials, the supplier portal) and the printing pages. The server builds the ZPL; an agent
 * on the printer's network picks the job up.
 */
import { queryOptions } from '@tanstack/react-query';
import { get, post } from '@/api/http';
import type { components } from '@/api/schema';
import type { Paginated } from '@/api/types';

export type PrinterDevice = components['schemas']['PrinterDevice'];
export type PrintJob = components['schemas']['PrintJob'];
export type PrintJobDetail = components['schemas']['PrintJobDetail'];
export type PrintJobInput = components['schemas']['PrintJobCreateRequest'];
export type LabelTemplateName = components['schemas']['TemplateEnum'];

export const PRINTERS_URL = '/api/printing/devices/';
export const JOBS_URL = '/api/printing/jobs/';
export const PRINT_JOB_PERMISSION = 'printing.add_printjob';

export const fetchPrinters = (signal?: AbortSignal) =>
  get<Paginated<PrinterDevice>>(PRINTERS_URL, { params: { page_size: 200, is_active: true, ordering: 'name' }, signal });

/** The tenant's active printers, to choose one from. */
export const printerChoicesQueryOptions = (tenant: string | null) =>
  queryOptions({ queryKey: [PRINTERS_URL, 'choices', tenant], queryFn: ({ signal }) => fetchPrinters(signal) });

export const createPrintJob = (input: PrintJobInput) => post<PrintJob>(JOBS_URL, input);

export const fetchJob = (id: number, signal?: AbortSignal) => get<PrintJobDetail>(`${JOBS_URL}${id}/`, { signal });
/** One job (`id` set: the query is enabled only then). */
export const jobQueryOptions = (tenant: string | null, id: number | undefined) =>
  queryOptions({ queryKey: [JOBS_URL, 'detail', tenant, id], queryFn: ({ signal }) => fetchJob(id as number, signal) });

/** A job is settled once the agent reported (printed, failed) or nobody picked it up (expired). */
export const isSettled = (status: PrintJob['status']) => status === 'printed' || status === 'failed' || status === 'expired';
