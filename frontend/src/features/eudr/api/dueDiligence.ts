/** The due diligence of a delivery (/api/duediligence/): countries and their benchmark level, the risk
 * assessment, the filing gate and its override, substantiated concerns, the records kept five years and
 * their audit trail. Internal users only (docs/duediligence.md). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '@/api/http';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';
import { RAW_MATERIALS_URL } from './endpoints';
import { useInvalidateRawMaterial } from './rawMaterials';

export type DueDiligenceOverview = components['schemas']['DueDiligenceOverview'];
export type RiskAssessment = components['schemas']['RiskAssessment'];
export type AssessmentInput = components['schemas']['RiskAssessmentInputRequest'];
export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditPage = components['schemas']['PaginatedAuditEntryList'];
export type Concern = components['schemas']['Concern'];
export type Blocker = components['schemas']['Blocker'];

export const DUE_DILIGENCE_URL = '/api/duediligence/';
const deliveryUrl = (id: number) => `${DUE_DILIGENCE_URL}deliveries/${id}/`;

/** The Art. 10(2) criteria, (a) to (n), in the regulation's order. */
export const CRITERIA = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'] as const;
export const MITIGATION_KINDS = ['more_information', 'independent_audit', 'other'] as const;
export const OVERRIDE_PERMISSION = 'duediligence.override_filing_gate';
export const ADD_ASSESSMENT = 'duediligence.add_riskassessment';
export const VIEW_AUDIT = 'duediligence.view_auditentry';
export const RESOLVE_CONCERN = 'duediligence.change_substantiatedconcern';

export const fetchOverview = (id: number, signal?: AbortSignal) => get<DueDiligenceOverview>(deliveryUrl(id), { signal });
export const fetchAudit = (id: number, page: number, signal?: AbortSignal) =>
  get<AuditPage>(`${deliveryUrl(id)}audit/?page=${page}&page_size=20`, { signal });

export function useDueDiligence(id: number) {
  const tenantId = useSession((s) => s.tenantId);
  // Under the deliveries' key: whatever refreshes the delivery (e.g. a recorded statement) refreshes this.
  return useQuery({ queryKey: [RAW_MATERIALS_URL, DUE_DILIGENCE_URL, 'delivery', id, tenantId], queryFn: ({ signal }) => fetchOverview(id, signal) });
}

export function useAuditTrail(id: number, page: number) {
  const tenantId = useSession((s) => s.tenantId);
  return useQuery({
    queryKey: [RAW_MATERIALS_URL, DUE_DILIGENCE_URL, 'audit', id, page, tenantId],
    queryFn: ({ signal }) => fetchAudit(id, page, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every due diligence write changes the overview, the trail and often the delivery itself. */
function useInvalidateAll() {
  const client = useQueryClient();
  const invalidateDelivery = useInvalidateRawMaterial();
  return (id: number) => Promise.all([client.invalidateQueries({ queryKey: [RAW_MATERIALS_URL, DUE_DILIGENCE_URL] }), invalidateDelivery(id)]);
}

export function useAssess(id: number) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: AssessmentInput) => post<RiskAssessment>(`${deliveryUrl(id)}assessments/`, input),
    onSuccess: () => invalidate(id),
  });
}

export type ReasonAction = 'override' | 'archive' | 'void-statement';

export function useReasonAction(id: number, action: ReasonAction) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (reason: string) => post<unknown>(`${deliveryUrl(id)}${action}/`, { reason }),
    onSuccess: () => invalidate(id),
  });
}

export function useRaiseConcern(id: number) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: { description: string; source?: string; delivery?: number; parent_vendor?: number }) =>
      post<Concern>(`${DUE_DILIGENCE_URL}concerns/`, input),
    onSuccess: () => invalidate(id),
  });
}

export function useResolveConcern(id: number) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ concern, resolution }: { concern: number; resolution: string }) =>
      post<Concern>(`${DUE_DILIGENCE_URL}concerns/${concern}/resolve/`, { resolution }),
    onSuccess: () => invalidate(id),
  });
}
