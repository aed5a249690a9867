/** The company's Peppol access point (GET/PUT /api/salesorders/peppol-settings/; 404 until one is set
 * up). The API key is write-only: the server answers `has_api_key`. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, put } from '@/api/http';
import { isApiError } from '@/api/errors';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';

export type PeppolSettings = components['schemas']['PeppolSettings'];
export type PeppolSettingsInput = components['schemas']['PeppolSettingsRequest'];

export const PEPPOL_SETTINGS_URL = '/api/salesorders/peppol-settings/';

/** The stored settings, or null while none are set up (the server's 404). */
export async function fetchPeppolSettings(signal?: AbortSignal): Promise<PeppolSettings | null> {
  try {
    return await get<PeppolSettings>(PEPPOL_SETTINGS_URL, { signal });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}
export const savePeppolSettings = (input: PeppolSettingsInput) => put<PeppolSettings>(PEPPOL_SETTINGS_URL, input);

function useKey() {
  const tenantId = useSession((s) => s.tenantId);
  return [PEPPOL_SETTINGS_URL, tenantId] as const;
}

export function usePeppolSettings(enabled: boolean) {
  const key = useKey();
  return useQuery({ queryKey: key, queryFn: ({ signal }) => fetchPeppolSettings(signal), enabled });
}

export function useSavePeppolSettings() {
  const key = useKey();
  const client = useQueryClient();
  return useMutation({ mutationFn: savePeppolSettings, onSuccess: (saved) => client.setQueryData(key, saved) });
}
