/** Received reference numbers (`/api/eudr/received-references/`): what a downstream operator or trader keeps
 * of its suppliers' statements for 5 years, each verified with the EU information system. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, post } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';
import { RECEIVED_REFERENCES_URL, TENANT_SETTINGS_URL } from './endpoints';

export type ReceivedReference = components['schemas']['ReceivedReference'];
export type ReceivedReferenceInput = components['schemas']['ReceivedReferenceRequest'];

export interface ReferencedCommodity {
  hs_heading?: string;
  description?: string;
  net_weight?: string;
  species?: { scientific_name?: string; common_name?: string }[];
  producer_countries?: string[];
}

export interface ReferencedStatement {
  activity_type: string;
  geolocation_confidential: boolean;
  commodities: ReferencedCommodity[];
}

const referenceUrl = (id: number) => `${RECEIVED_REFERENCES_URL}${id}/`;

export function useCreateReceivedReference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReceivedReferenceInput) => post<ReceivedReference>(RECEIVED_REFERENCES_URL, input),
    onSuccess: () => client.invalidateQueries({ queryKey: [RECEIVED_REFERENCES_URL] }),
  });
}

export function useVerifyReceivedReference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<ReceivedReference>(`${referenceUrl(id)}verify/`),
    onSuccess: () => client.invalidateQueries({ queryKey: [RECEIVED_REFERENCES_URL] }),
  });
}

export function useDeleteReceivedReference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => del(referenceUrl(id)),
    onSuccess: () => client.invalidateQueries({ queryKey: [RECEIVED_REFERENCES_URL] }),
  });
}

/** The referenced statement's content (getDdsByIdentifiers), only asked for while `id` is set. */
export function useReferencedStatement(id: number | null) {
  const tenant = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [RECEIVED_REFERENCES_URL, 'statement', tenant, id],
    queryFn: ({ signal }) => get<ReferencedStatement>(`${referenceUrl(id ?? 0)}statement/`, { signal }),
    enabled: id !== null,
    retry: false,
  });
}

/** Whether the company is an SME (company settings `eudr_is_sme`): an SME may not read referenced
 * statements. Undefined while not known. */
export function useIsSme(): boolean | undefined {
  const tenant = useSession((s) => s.tenantId);
  const settings = useQuery({
    queryKey: [TENANT_SETTINGS_URL, tenant],
    queryFn: ({ signal }) => get<{ eudr_is_sme?: boolean }>(TENANT_SETTINGS_URL, { signal }),
    staleTime: 60 * 1000,
  });
  return settings.data ? Boolean(settings.data.eudr_is_sme) : undefined;
}
