/**
 * The query options of the generic data components: a list endpoint's pages (ServerTable) and a search
 * select's options (RemoteSelect). Every key starts with its endpoint, so invalidating `[endpoint]`
 * (a feature's `xxxKeys.all`) refreshes them with the rest of that endpoint's queries.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { get } from './http';
import type { Paginated } from './types';

export const listPageQueryOptions = <T>(endpoint: string, extra: readonly unknown[], params: Record<string, unknown>) =>
  queryOptions({
    queryKey: [endpoint, ...extra, params],
    queryFn: ({ signal }) => get<Paginated<T>>(endpoint, { params, signal }),
    placeholderData: keepPreviousData,
  });

export const searchOptionsQueryOptions = <R>(stem: string, tenant: string | null, text: string, search: (text: string, signal?: AbortSignal) => Promise<R>) =>
  queryOptions({
    queryKey: [stem, 'options', tenant, text],
    queryFn: ({ signal }) => search(text, signal),
    staleTime: 30_000,
  });

export const searchOneQueryOptions = <R>(stem: string, tenant: string | null, id: unknown, fetchOne: (signal?: AbortSignal) => Promise<R>) =>
  queryOptions({
    queryKey: [stem, 'one', tenant, id],
    queryFn: ({ signal }) => fetchOne(signal),
    staleTime: 5 * 60_000,
  });
