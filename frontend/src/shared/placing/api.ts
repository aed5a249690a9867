/** Statements around the placing: what an import's containers hold and the statement that covers them
 * (eudr/placing-statements/). Internal users only: the verification number is shown here. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';

export type PlacingPreview = components['schemas']['PlacingPreview'];
export type PlacingStatement = components['schemas']['PlacingStatement'];
export type PlacingAction = 'amend' | 'withdraw' | 'refresh';
export interface PlacingInput {
  shipments: number[];
  customs_declaration_number?: string;
  customs_declaration_date?: string | null;
}

export const PLACING_URL = '/api/eudr/placing-statements/';

export const fetchPlacingPreview = (shipments: number[], signal?: AbortSignal) =>
  get<PlacingPreview>(`${PLACING_URL}preview/`, { params: { shipments: shipments.join(',') }, signal });
export const filePlacingStatement = (input: PlacingInput) => post<PlacingStatement>(PLACING_URL, input);
export const runPlacingAction = (id: number, action: PlacingAction) =>
  post<PlacingStatement>(`${PLACING_URL}${id}/${action}/`);

export function usePlacingPreview(shipments: number[], enabled = true) {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [PLACING_URL, 'preview', tenantId, shipments.join(',')],
    queryFn: ({ signal }) => fetchPlacingPreview(shipments, signal),
    enabled: enabled && shipments.length > 0,
  });
}

function useInvalidatePlacing() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [PLACING_URL] });
}

export function useFilePlacingStatement() {
  const invalidate = useInvalidatePlacing();
  return useMutation({ mutationFn: filePlacingStatement, onSuccess: () => void invalidate() });
}

export function usePlacingAction() {
  const invalidate = useInvalidatePlacing();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: PlacingAction }) => runPlacingAction(id, action),
    onSuccess: () => void invalidate(),
  });
}
