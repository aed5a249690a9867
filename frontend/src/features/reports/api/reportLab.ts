/** The report lab's calls: datasets, run, drill-down, export, checks, saved reports (backend apps/reports). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, http, patch, post } from '@/api/http';
import type { components } from '@/api/schema';
import type { Paginated } from '@/api/types';

export type Dataset = components['schemas']['Dataset'];
export type Dimension = components['schemas']['Dimension'];
export type Measure = components['schemas']['Measure'];
export type RunResult = components['schemas']['RunResult'];
export type DrillResult = components['schemas']['DrillResult'];
export type DatasetCheck = components['schemas']['DatasetCheck'];
export type SavedReport = components['schemas']['SavedReport'];
export type ChartKind = components['schemas']['ChartEnum'];
export type FilterOp = 'eq' | 'in' | 'range' | 'contains' | 'relative';
export type Aggregate = 'sum' | 'count' | 'count_distinct' | 'avg' | 'min' | 'max';

export interface ReportFilter {
  field: string;
  op: FilterOp;
  value: unknown;
}

export interface MeasureSpec {
  field: string;
  agg: Aggregate;
}

/** What `POST /api/reports/run/` takes and a saved report keeps. */
export interface ReportDefinition {
  dataset: string;
  filters: ReportFilter[];
  group_by: string[];
  pivot: string | null;
  measures: MeasureSpec[];
  order_by: string[];
  limit: number;
}

export type ReportRow = Record<string, string | number | null>;

const BASE = '/api/reports/';
export const SAVED_URL = `${BASE}saved/`;

export const fetchDatasets = (signal?: AbortSignal) => get<Dataset[]>(`${BASE}datasets/`, { signal });
export const runReport = (definition: ReportDefinition, signal?: AbortSignal) =>
  post<RunResult>(`${BASE}run/`, definition, { signal });
export const drillReport = (
  definition: ReportDefinition,
  cell: Record<string, string | number | null>,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
) => post<DrillResult>(`${BASE}drill/`, { ...definition, cell, page, page_size: pageSize }, { signal });
export const fetchChecks = (signal?: AbortSignal) => get<DatasetCheck[]>(`${BASE}checks/`, { signal });

/** The report's table as a file, laid out as shown (groups, subtotals, totals). */
export async function exportReport(definition: ReportDefinition, format: 'csv' | 'xlsx'): Promise<Blob> {
  const response = await http.post<Blob>(`${BASE}export/`, definition, { params: { format }, responseType: 'blob' });
  return response.data;
}

export interface SavedReportInput {
  name: string;
  description?: string;
  shared: boolean;
  definition: ReportDefinition;
  chart: ChartKind;
}

export const fetchSavedReports = (signal?: AbortSignal) =>
  get<Paginated<SavedReport>>(SAVED_URL, { params: { page_size: 200, ordering: 'name' }, signal });
export const createSavedReport = (input: SavedReportInput) => post<SavedReport>(SAVED_URL, input);
export const updateSavedReport = (id: number, input: Partial<SavedReportInput>) => patch<SavedReport>(`${SAVED_URL}${id}/`, input);
export const deleteSavedReport = (id: number) => del(`${SAVED_URL}${id}/`);
export const duplicateSavedReport = (id: number) => post<SavedReport>(`${SAVED_URL}${id}/duplicate/`);

export const reportKeys = {
  all: ['reports'] as const,
  datasets: () => [...reportKeys.all, 'datasets'] as const,
  run: (definition: ReportDefinition | null) => [...reportKeys.all, 'run', definition] as const,
  saved: () => [...reportKeys.all, 'saved'] as const,
  checks: () => [...reportKeys.all, 'checks'] as const,
  drill: (definition: ReportDefinition, cell: Record<string, unknown>, page: number) =>
    [...reportKeys.all, 'drill', definition, cell, page] as const,
};

export function useDatasets() {
  return useQuery({ queryKey: reportKeys.datasets(), queryFn: ({ signal }) => fetchDatasets(signal), staleTime: 5 * 60_000 });
}

/** Runs the report whenever the definition changes (null: nothing to run yet); keeps the last answer while the next loads. */
export function useReportRun(definition: ReportDefinition | null) {
  return useQuery({
    queryKey: reportKeys.run(definition),
    queryFn: ({ signal }) => runReport(definition as ReportDefinition, signal),
    enabled: definition !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useDrill(definition: ReportDefinition, cell: Record<string, string | number | null> | null, page: number, pageSize = 20) {
  return useQuery({
    queryKey: reportKeys.drill(definition, cell ?? {}, page),
    queryFn: ({ signal }) => drillReport(definition, cell ?? {}, page, pageSize, signal),
    enabled: cell !== null,
    placeholderData: keepPreviousData,
  });
}

export function useChecks() {
  return useQuery({ queryKey: reportKeys.checks(), queryFn: ({ signal }) => fetchChecks(signal) });
}

export function useSavedReports() {
  return useQuery({ queryKey: reportKeys.saved(), queryFn: ({ signal }) => fetchSavedReports(signal) });
}

export function useSavedReportMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: reportKeys.saved() });
  return {
    create: useMutation({ mutationFn: createSavedReport, onSuccess: refresh }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: number; input: Partial<SavedReportInput> }) => updateSavedReport(id, input),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: deleteSavedReport, onSuccess: refresh }),
    duplicate: useMutation({ mutationFn: duplicateSavedReport, onSuccess: refresh }),
  };
}
