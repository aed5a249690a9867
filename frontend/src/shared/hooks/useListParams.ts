import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** Query parameters of the list convention (docs/api-contract.md "Lists"). */
export const RESERVED_LIST_KEYS = ['page', 'page_size', 'search', 'ordering'] as const;
export const MAX_PAGE_SIZE = 200;

export type FilterValue = string | string[];
export type ListFilters = Record<string, FilterValue>;

export interface ListParams {
  page: number;
  pageSize: number;
  search: string;
  ordering: string | undefined;
  filters: ListFilters;
}

export interface UseListParamsOptions {
  defaultPageSize?: number;
  defaultOrdering?: string;
  /** Only these keys are read as filters; by default every other query parameter is one. */
  filterKeys?: readonly string[];
}

export interface UseListParams extends ListParams {
  /** The parameters to send to the list endpoint. */
  apiParams: Record<string, string | number | string[]>;
  setPage: (page: number, pageSize?: number) => void;
  setSearch: (search: string) => void;
  setOrdering: (ordering: string | undefined) => void;
  setFilter: (key: string, value: FilterValue | null | undefined) => void;
  setFilters: (filters: Record<string, FilterValue | null | undefined>) => void;
  reset: () => void;
}

function positiveInt(value: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : fallback;
}

export function parseListParams(search: URLSearchParams, options: UseListParamsOptions = {}): ListParams {
  const filters: ListFilters = {};
  const keys = options.filterKeys ?? [...new Set(search.keys())].filter((k) => !(RESERVED_LIST_KEYS as readonly string[]).includes(k));
  for (const key of keys) {
    const values = search.getAll(key).filter((v) => v !== '');
    if (values.length === 1 && values[0] !== undefined) filters[key] = values[0];
    else if (values.length > 1) filters[key] = values;
  }
  return {
    page: positiveInt(search.get('page'), 1),
    pageSize: positiveInt(search.get('page_size'), options.defaultPageSize ?? 20, MAX_PAGE_SIZE),
    search: search.get('search') ?? '',
    ordering: search.get('ordering') || options.defaultOrdering,
    filters,
  };
}

export function toApiParams(params: ListParams): Record<string, string | number | string[]> {
  const api: Record<string, string | number | string[]> = { page: params.page, page_size: params.pageSize };
  if (params.search) api.search = params.search;
  if (params.ordering) api.ordering = params.ordering;
  for (const [key, value] of Object.entries(params.filters)) api[key] = value;
  return api;
}

/**
 * Page, page size, search, ordering and filters of a list, kept in the URL so a list can be
 * bookmarked, shared and restored with the back button. Changing search or a filter goes back to page 1.
 */
export function useListParams(options: UseListParamsOptions = {}): UseListParams {
  const [searchParams, setSearchParams] = useSearchParams();
  const { defaultPageSize, defaultOrdering, filterKeys } = options;
  const params = useMemo(
    () => parseListParams(searchParams, { defaultPageSize, defaultOrdering, filterKeys }),
    [searchParams, defaultPageSize, defaultOrdering, filterKeys],
  );

  const update = useCallback(
    (change: (next: URLSearchParams) => void, replace = false) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace },
      );
    },
    [setSearchParams],
  );

  const setPage = useCallback(
    (page: number, pageSize?: number) =>
      update((next) => {
        next.set('page', String(page));
        if (pageSize !== undefined) next.set('page_size', String(pageSize));
      }),
    [update],
  );

  const setSearch = useCallback(
    (search: string) =>
      update((next) => {
        if (search) next.set('search', search);
        else next.delete('search');
        next.delete('page');
      }, true),
    [update],
  );

  const setOrdering = useCallback(
    (ordering: string | undefined) =>
      update((next) => {
        if (ordering) next.set('ordering', ordering);
        else next.delete('ordering');
      }),
    [update],
  );

  const setFilters = useCallback(
    (filters: Record<string, FilterValue | null | undefined>) =>
      update((next) => {
        for (const [key, value] of Object.entries(filters)) {
          next.delete(key);
          if (Array.isArray(value)) value.forEach((v) => next.append(key, v));
          else if (value !== null && value !== undefined && value !== '') next.set(key, value);
        }
        next.delete('page');
      }),
    [update],
  );

  const setFilter = useCallback(
    (key: string, value: FilterValue | null | undefined) => setFilters({ [key]: value }),
    [setFilters],
  );

  const reset = useCallback(() => setSearchParams(new URLSearchParams()), [setSearchParams]);

  return { ...params, apiParams: toApiParams(params), setPage, setSearch, setOrdering, setFilter, setFilters, reset };
}
