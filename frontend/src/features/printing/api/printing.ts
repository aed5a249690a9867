/** The printing management API (/api/printing/): printers, agents, jobs, templates and previews. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { get, patch, post } from '@/api/http';
import type { components } from '@/api/schema';
import type { Paginated } from '@/api/types';
import { JOBS_URL, PRINTERS_URL, type PrintJob, type PrinterDevice } from '@/shared/printing/printApi';

export { JOBS_URL, PRINTERS_URL };
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

/** Refreshes every list of the printing area (ServerTable queries start with their endpoint). */
export function useInvalidatePrinting() {
  const client = useQueryClient();
  return () =>
    Promise.all([PRINTERS_URL, AGENTS_URL, JOBS_URL].map((url) => client.invalidateQueries({ queryKey: [url] })));
}

export function useRevokeAgent() {
  const invalidate = useInvalidatePrinting();
  return useMutation({ mutationFn: revokeAgent, onSuccess: () => invalidate() });
}
