/** The company's TRACES web-service credentials for filing statements (GET/PUT /api/eudr/traces-account/,
 * POST .../test/ calls the EU information system's echo service). The key is write-only. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post, put } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';

export type TracesAccount = components['schemas']['TracesAccount'];
export type TracesAccountInput = components['schemas']['TracesAccountRequest'];
export type TracesEnvironment = components['schemas']['EnvironmentEnum'];

export const TRACES_ACCOUNT_URL = '/api/eudr/traces-account/';

export const fetchTracesAccount = (signal?: AbortSignal) => get<TracesAccount>(TRACES_ACCOUNT_URL, { signal });
export const saveTracesAccount = (input: TracesAccountInput) => put<TracesAccount>(TRACES_ACCOUNT_URL, input);
export const testTracesAccount = () => post<TracesAccount>(`${TRACES_ACCOUNT_URL}test/`);

function useKey() {
  const tenantId = useSession((s) => s.tenantId);
  return [TRACES_ACCOUNT_URL, tenantId] as const;
}

export function useTracesAccount() {
  const key = useKey();
  return useQuery({ queryKey: key, queryFn: ({ signal }) => fetchTracesAccount(signal) });
}

export function useSaveTracesAccount() {
  const key = useKey();
  const client = useQueryClient();
  return useMutation({ mutationFn: saveTracesAccount, onSuccess: (saved) => client.setQueryData(key, saved) });
}

export function useTestTracesAccount() {
  const key = useKey();
  const client = useQueryClient();
  return useMutation({ mutationFn: testTracesAccount, onSuccess: (saved) => client.setQueryData(key, saved) });
}
