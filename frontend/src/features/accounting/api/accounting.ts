/**
 * /api/accounting/ (backend apps/accounting/api): the connection to Visma, its test, the mappings, the
 * sync log with retry and skip, the dry run and "sync now". Types are the generated OpenAPI ones.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post, put } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';

type S = components['schemas'];
export type Connection = S['Connection'];
export type ConnectionInput = S['ConnectionRequest'];
export type Provider = S['AccountingProviderEnum'];
export type Mapping = S['Mapping'];
export type RecordKind = S['AccountingRecordKindEnum'];
export type SyncEntry = S['SyncEntry'];
export type SyncStatus = S['SyncEntryStatusEnum'];
export type DryRun = S['DryRun'];
export type TestResult = S['TestResult'];

export const CONNECTION_URL = '/api/accounting/connection/';
export const MAPPINGS_URL = '/api/accounting/mappings/';
export const SYNC_LOG_URL = '/api/accounting/sync-log/';
export const DRY_RUN_URL = '/api/accounting/dry-run/';
export const OAUTH_REDIRECT_URL = '/api/accounting/oauth/redirect-uri/';
export const OAUTH_START_URL = '/api/accounting/oauth/start/';
export const OAUTH_CALLBACK_URL = '/api/accounting/oauth/callback/';

export const ACCOUNTING_PERMS = {
  manage: 'accounting.manage',
  viewLog: 'accounting.view_syncentry',
  viewMappings: 'accounting.view_mapping',
} as const;

/** The documented addresses of each provider (a sandbox company uses its own, entered by hand). */
export const PROVIDER_DEFAULTS: Record<Provider, { base_url: string; token_url: string; scope: string }> = {
  visma_net: {
    base_url: 'https://api.finance.visma.net/v1/',
    token_url: 'https://connect.visma.com/connect/token',
    scope: 'vismanet_erp_service_api:read vismanet_erp_service_api:create vismanet_erp_service_api:update',
  },
  visma_eaccounting: {
    base_url: 'https://eaccountingapi.vismaonline.com/v2/',
    token_url: 'https://identity.vismaonline.com/connect/token',
    scope: '',
  },
};

export const RECORD_KINDS: RecordKind[] = ['customer', 'supplier', 'parent_vendor', 'article', 'vat_code', 'payment_term', 'invoice', 'credit_note'];
export const SYNC_STATUSES: SyncStatus[] = ['pending', 'sent', 'failed', 'skipped'];

const useTenant = () => useSession((s) => s.tenantId);

export const fetchConnection = (signal?: AbortSignal) => get<Connection>(CONNECTION_URL, { signal });
export const saveConnection = (input: Partial<ConnectionInput>) => put<Connection>(CONNECTION_URL, input);
export const testConnection = () => post<TestResult>(`${CONNECTION_URL}test/`);
export const fetchDryRun = (signal?: AbortSignal) => get<DryRun>(DRY_RUN_URL, { signal });
export const startSync = () => post<{ queued: number }>('/api/accounting/sync/');
export const saveMapping = (id: number, externalId: string) => patch<Mapping>(`${MAPPINGS_URL}${id}/`, { external_id: externalId });
export const createMapping = (body: { kind: RecordKind; local_key: string; external_id: string }) => post<Mapping>(MAPPINGS_URL, body);
export const deleteMapping = (id: number) => del(`${MAPPINGS_URL}${id}/`);
export const retryEntry = (id: number) => post<SyncEntry>(`${SYNC_LOG_URL}${id}/retry/`);
export const skipEntry = (id: number) => post<SyncEntry>(`${SYNC_LOG_URL}${id}/skip/`);

export type AuthorizationStart = S['AuthorizationStart'];
/** What Visma sent back to the redirect URI: a code and the state, or an error. */
export type AuthorizationAnswer = S['AuthorizationCallbackRequest'];

export const fetchRedirectUri = (signal?: AbortSignal) => get<S['RedirectUri']>(OAUTH_REDIRECT_URL, { signal });
export const startAuthorization = () => post<AuthorizationStart>(OAUTH_START_URL);
export const finishAuthorization = (answer: AuthorizationAnswer) => post<TestResult>(OAUTH_CALLBACK_URL, answer);

export function useRedirectUri(enabled: boolean) {
  const tenant = useTenant();
  return useQuery({ queryKey: [OAUTH_REDIRECT_URL, tenant], queryFn: ({ signal }) => fetchRedirectUri(signal), enabled, retry: false });
}

export function useConnection() {
  const tenant = useTenant();
  return useQuery({ queryKey: [CONNECTION_URL, tenant], queryFn: ({ signal }) => fetchConnection(signal), retry: false });
}

export function useDryRun(enabled: boolean) {
  const tenant = useTenant();
  return useQuery({ queryKey: [DRY_RUN_URL, tenant], queryFn: ({ signal }) => fetchDryRun(signal), enabled, retry: false });
}

/** Refreshes every accounting query (ServerTable queries start with their endpoint). */
export function useInvalidateAccounting() {
  const client = useQueryClient();
  return () =>
    Promise.all([CONNECTION_URL, MAPPINGS_URL, SYNC_LOG_URL, DRY_RUN_URL].map((url) => client.invalidateQueries({ queryKey: [url] })));
}

export function useMay(permission: string): boolean {
  return useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes(permission) || list.includes(ACCOUNTING_PERMS.manage);
  });
}
