/** The carton labels list (/api/eudr/cartons/) as the shared carton list reads it. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { get } from '@/api/http';
import type { Paginated } from '@/api/types';

export const CARTONS_URL = '/api/eudr/cartons/';

/** One carton label as the carton list answers it (the fields shown here). */
export interface CartonRow {
  id: number;
  code: string;
  qr_url: string;
  production_batch_code: string;
  batch_sequence: number;
  article_number: string;
  product_name: string;
  purchase_order: string | null;
  container: string;
  net_weight_kg: string;
  created_at: string;
}

/** A page of the active carton labels matching `filter`, in batch order. */
export const cartonListQueryOptions = (tenant: string | null, filter: Record<string, string | number>, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [CARTONS_URL, 'list', tenant, filter, page, pageSize],
    queryFn: ({ signal }) =>
      get<Paginated<CartonRow>>(CARTONS_URL, {
        params: { ...filter, page, page_size: pageSize, ordering: 'production_batch_code,batch_sequence' },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
