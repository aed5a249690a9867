/**
 * Content types (docs/specification.md sections 3, 4, 5): comments point at an object by content type id. The list
 * is loaded once after sign-in, reloaded on demand when a name is missing, and an error is raised when
 * it is still missing. The list lives in the query cache, not in a store of its own.
 */
import type { QueryClient } from '@tanstack/react-query';
import { CONTENT_TYPES_URL } from '@/api/endpoints';
import { http } from '@/api/http';
import type { ContentType, Envelope } from '@/api/types';

export { CONTENT_TYPES_URL };
export const CONTENT_TYPES_QUERY_KEY = ['common', 'content-types'] as const;

/** Short names used by the UI -> app_label.model. */
export const CONTENT_TYPE_ALIASES: Readonly<Record<string, string>> = {
  purchaseorder: 'purchaseorders.purchaseorder',
  salesorder: 'salesorders.salesorder',
  shipment: 'logistics.shipmentinfo',
  shipmentinfo: 'logistics.shipmentinfo',
  supplier: 'suppliers.supplier',
};

/** App labels tried in front of a bare model name. */
export const CONTENT_TYPE_PREFIXES = ['purchaseorders', 'salesorders', 'logistics', 'suppliers'] as const;

export class ContentTypeNotFoundError extends Error {
  constructor(name: string) {
    super(`Cannot find ContentType for: ${name}. Please ensure the ContentType exists in the system.`);
    this.name = 'ContentTypeNotFoundError';
  }
}

export async function fetchContentTypes(): Promise<ContentType[]> {
  const response = await http.get<Envelope<unknown>>(CONTENT_TYPES_URL);
  const data = response.data.data;
  if (!Array.isArray(data)) throw new Error('Invalid response format');
  return data as ContentType[];
}

/** Case-insensitive lookup: the alias, the name itself (app_label.model or model), then the prefixes. */
export function findContentType(list: readonly ContentType[], name: string): ContentType | undefined {
  const key = name.trim().toLowerCase();
  if (key === '') return undefined;
  const candidates: string[] = [];
  const alias = CONTENT_TYPE_ALIASES[key];
  if (alias) candidates.push(alias);
  candidates.push(key);
  if (!key.includes('.')) for (const prefix of CONTENT_TYPE_PREFIXES) candidates.push(`${prefix}.${key}`);
  const byName = new Map(list.map((ct) => [`${ct.app_label}.${ct.model}`.toLowerCase(), ct]));
  for (const candidate of candidates) {
    const hit = byName.get(candidate);
    if (hit) return hit;
  }
  return undefined;
}

export interface ContentTypeRegistry {
  /** Loads the list once (no-op when already loaded). */
  preload(): Promise<ContentType[]>;
  /** Resolves a name or numeric id to the content type id, reloading once if it is not known. */
  resolveId(nameOrId: string | number): Promise<number>;
}

export function createContentTypeRegistry(client: QueryClient, fetcher: () => Promise<ContentType[]> = fetchContentTypes): ContentTypeRegistry {
  const load = (fresh: boolean) =>
    client.query({ queryKey: CONTENT_TYPES_QUERY_KEY, queryFn: fetcher, staleTime: fresh ? 0 : Infinity });

  return {
    preload: () => load(false),
    async resolveId(nameOrId) {
      if (typeof nameOrId === 'number') return nameOrId;
      if (/^\d+$/.test(nameOrId.trim())) return Number(nameOrId.trim());
      const first = findContentType(await load(false), nameOrId);
      if (first) return first.id;
      const second = findContentType(await load(true), nameOrId);
      if (second) return second.id;
      throw new ContentTypeNotFoundError(nameOrId);
    },
  };
}
