/** Filing statements with the EU information system (raw-materials/{id}/dds-filing/). Internal users only;
 * the company's TRACES credentials are in features/company/api/tracesAccount.ts. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';
import { rawMaterialUrl } from './endpoints';
import { useInvalidateRawMaterial } from './rawMaterials';

export type DdsFiling = components['schemas']['DdsFiling'];
export type DdsSubmission = components['schemas']['DdsSubmission'];
export type FilingAction = 'submit' | 'amend' | 'withdraw' | 'refresh';

const filingUrl = (id: number) => `${rawMaterialUrl(id)}dds-filing/`;

export const fetchDdsFiling = (id: number, signal?: AbortSignal) => get<DdsFiling>(filingUrl(id), { signal });
export const runFilingAction = (id: number, action: FilingAction) => post<DdsFiling>(`${filingUrl(id)}${action}/`);

export function useDdsFiling(id: number) {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({ queryKey: [filingUrl(id), tenantId], queryFn: ({ signal }) => fetchDdsFiling(id, signal) });
}

/** Runs an action; the answer (the new overview) replaces the cached one. */
export function useFilingAction(id: number) {
  const tenantId = useSession((s) => s.tenantId);
  const client = useQueryClient();
  const invalidate = useInvalidateRawMaterial();
  return useMutation({
    mutationFn: (action: FilingAction) => runFilingAction(id, action),
    onSuccess: (data) => {
      client.setQueryData([filingUrl(id), tenantId], data);
      // The delivery's filed-statement numbers follow the product's statement.
      void invalidate(id);
    },
  });
}
