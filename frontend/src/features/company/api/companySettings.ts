/** The company settings: GET and PATCH /api/tenants/current/ (the operator of due diligence statements). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, patch } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';

export type CompanySettings = components['schemas']['CompanySettings'];
export type CompanySettingsInput = components['schemas']['PatchedCompanySettingsRequest'];
export type OperatorRole = components['schemas']['OperatorRoleEnum'];
export type MissingSetting = components['schemas']['MissingForStatementEnum'];

export const COMPANY_SETTINGS_URL = '/api/tenants/current/';

export const fetchCompanySettings = (signal?: AbortSignal) => get<CompanySettings>(COMPANY_SETTINGS_URL, { signal });
export const updateCompanySettings = (input: CompanySettingsInput) => patch<CompanySettings>(COMPANY_SETTINGS_URL, input);

function queryKey(tenantId: string | null) {
  return [COMPANY_SETTINGS_URL, tenantId] as const;
}

export function useCompanySettings() {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({ queryKey: queryKey(tenantId), queryFn: ({ signal }) => fetchCompanySettings(signal) });
}

/** Saves and puts the server's answer (normalised identifiers, what is still missing) into the cache. */
export function useUpdateCompanySettings() {
  const tenantId = useSession((s) => s.tenantId);
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateCompanySettings,
    onSuccess: (saved) => client.setQueryData(queryKey(tenantId), saved),
  });
}
