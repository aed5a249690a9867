/** The printing management API (/api/printing/): printers, agents, jobs, templates and previews. */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { get, patch, post } from '@/api/http';
import type { components } from '@/api/schema';
import type { Paginated } from '@/api/types';
import { JOBS_URL, PRINTERS_URL, jobQueryOptions, printerChoicesQueryOptions, type PrintJob, type PrinterDevice } from '@/shared/printing/printApi';

export { JOBS_URL, PRINTERS_URL, jobQueryOptions, printerChoicesQueryOptions };
export type { PrintJob, PrinterDevice };
export type PrinterInput = components['schemas']['PrinterDeviceRequest'];
export type PrintAgent = components['schemas']['PrintAgent'];
export type PairingCode = components['schemas']['PairingCode'];
export type Preview = components['schemas']['LabelPreview'];
export type PreviewElement = components['schemas']['PreviewElement'];
export type PrinterState = components['schemas']['PrinterStatusEnum'];
export type JobStatus = components['schemas']['PrintJobStatusEnum'];

export const AGENTS_URL = '/api/printing/agents/';
export const PREVIEW_URL = '/api/printing/templates/preview/';
export const AGENT_DOWNLOAD_URL = '/api/printer/agent.py';
export const CARTONS_URL = '/api/eudr/cartons/';

export const PRINTING_PERMS = {
  addPrinter: 'printing.add_printerdevice',
  changePrinter: 'printing.change_printerdevice',
  addAgent: 'printing.add_printagent',
  changeAgent: 'printing.change_printagent',
  print: 'printing.add_printjob',
} as const;

export const fetchAgents = (signal?: AbortSignal) =>
  get<Paginated<PrintAgent>>(AGENTS_URL, { params: { page_size: 200, ordering: 'name' }, signal });

export const createPairingCode = (name: string) => post<PairingCode>(`${AGENTS_URL}pairing-code/`, { name });
export const revokeAgent = (id: number) => post<PrintAgent>(`${AGENTS_URL}${id}/revoke/`);
export const savePrinter = (id: number | undefined, input: PrinterInput) =>
  id === undefined ? post<PrinterDevice>(PRINTERS_URL, input) : patch<PrinterDevice>(`${PRINTERS_URL}${id}/`, input);
export const queueTestLabel = (id: number) => post<PrintJob>(`${PRINTERS_URL}${id}/test-label/`);
export const queueStatusCheck = (id: number) => post<PrintJob>(`${PRINTERS_URL}${id}/status-check/`);
export const reprintJob = (id: number) => post<PrintJob>(`${JOBS_URL}${id}/reprint/`);
export const fetchPreview = (body: { label: number; template: string; printer?: number }) => post<Preview>(PREVIEW_URL, body);

/** Keys to invalidate: every query of an endpoint starts with it (ServerTable's lists too). */
export const printingKeys = { printers: [PRINTERS_URL] as const, agents: [AGENTS_URL] as const, jobs: [JOBS_URL] as const };

/** The print agents: `use` tells the cache entry (the printer form's choices, the integration page's health). */
export const agentsQueryOptions = (tenant: string | null, use: 'choices' | 'health') =>
  queryOptions({ queryKey: [AGENTS_URL, use, tenant], queryFn: ({ signal }) => fetchAgents(signal) });

/** A page of the latest jobs (of one printer, or all). */
export const recentJobsQueryOptions = (tenant: string | null, params: Record<string, string | number>) =>
  queryOptions({
    queryKey: [JOBS_URL, 'recent', tenant, params],
    queryFn: ({ signal }) => get<Paginated<PrintJob>>(JOBS_URL, { params, signal }),
    placeholderData: keepPreviousData,
  });

export interface CartonOption {
  id: number;
  code: string;
  article_number: string;
  production_batch_code: string;
  batch_sequence: number;
}
/** The newest cartons matching `search`, for the virtual printer's carton choice. */
export const demoCartonsQueryOptions = (tenant: string | null, search: string) =>
  queryOptions({
    queryKey: [CARTONS_URL, 'demo-options', tenant, search],
    queryFn: ({ signal }) => get<Paginated<CartonOption>>(CARTONS_URL, { params: { search, page_size: 20, ordering: '-created_at' }, signal }),
    placeholderData: keepPreviousData,
  });

/** The rendering of a carton's label with a template (and a printer's resolution and label size). */
export const previewQueryOptions = (tenant: string | null, label: number | undefined, template: string, printer: number | undefined) =>
  queryOptions({
    queryKey: [PREVIEW_URL, tenant, label, template, printer],
    queryFn: () => fetchPreview({ label: label as number, template, ...(printer ? { printer } : {}) }),
  });

/** Refreshes every list of the printing area (ServerTable queries start with their endpoint). */
export function useInvalidatePrinting() {
  const client = useQueryClient();
  return () => Promise.all(Object.values(printingKeys).map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useRevokeAgent() {
  const invalidate = useInvalidatePrinting();
  return useMutation({ mutationFn: revokeAgent, onSuccess: () => invalidate() });
}
