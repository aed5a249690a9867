/**
 * /api/core/ e-mail endpoints (backend apps/notifications/api): events, templates, scenarios, the log and
 * the company's SMTP settings. Types are the generated OpenAPI ones.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, download, get, post, put } from '@/api/http';
import type { Paginated } from '@/api/types';
import type { components } from '@/api/schema';
import { useSession } from '@/shared/session/useSession';

type S = components['schemas'];
export type EmailEvent = S['EmailEvent'];
export type EmailTemplate = S['EmailTemplate'];
export type EmailTemplateInput = S['EmailTemplateRequest'];
export type EmailScenario = S['EmailScenario'];
export type EmailScenarioInput = S['EmailScenarioRequest'];
export type Condition = S['Condition'];
export type ConditionInput = S['ConditionRequest'];
export type Recipient = S['Recipient'];
export type RecipientType = S['EmailRecipientTypeEnum'];
export type EmailMessage = S['EmailMessage'];
export type EmailMessageDetail = S['EmailMessageDetail'];
export type Preview = S['Preview'];
export type RecordOption = S['RecordOption'];
export type SmtpSettings = S['SmtpSettings'];
export type SmtpSettingsInput = S['SmtpSettingsRequest'];
export type SmtpTestResult = S['SmtpTestResult'];
export type MessageStatus = S['EmailMessageStatusEnum'];
export type EmailHealth = S['EmailHealth'];
export type Language = S['DocumentLanguageEnum'];
export type TemplatePreviewInput = S['TemplatePreviewRequest'];
export type ScenarioActionInput = S['ScenarioActionRequest'];
export type Role = S['Role'];
export type Department = S['Department'];

export const EVENTS_URL = '/api/core/email-events/';
export const TEMPLATES_URL = '/api/core/email-templates/';
export const SCENARIOS_URL = '/api/core/email-scenarios/';
export const LOG_URL = '/api/core/email-log/';
export const SMTP_URL = '/api/core/smtp-settings/';
export const ROLES_URL = '/api/users/roles/';
export const DEPARTMENTS_URL = '/api/users/departments/';

export const RECIPIENT_TYPES: readonly RecipientType[] = ['contact', 'address', 'role', 'department'];
export const MESSAGE_STATUSES: readonly MessageStatus[] = ['queued', 'sending', 'sent', 'uncertain', 'failed'];
export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains', 'is_empty', 'is_not_empty'] as const;
export const NO_VALUE_OPERATORS: readonly string[] = ['is_empty', 'is_not_empty'];

/** The live preview's request: the editor's unsaved parts (a part left empty is sent as ""). */
export function templatePreviewInput(values: Partial<EmailTemplateInput>, record: number | null | undefined, language: Language): TemplatePreviewInput {
  return {
    event: values.event ?? '',
    record: record ?? null,
    language,
    subject_en: values.subject_en ?? '',
    subject_zh: values.subject_zh ?? '',
    body_html_en: values.body_html_en ?? '',
    body_html_zh: values.body_html_zh ?? '',
    body_text_en: values.body_text_en ?? '',
    body_text_zh: values.body_text_zh ?? '',
  };
}

/* ---------- fetchers ---------- */

export const fetchEvents = (signal?: AbortSignal) => get<EmailEvent[]>(EVENTS_URL, { signal });
export const fetchEventRecords = (event: string, search: string, signal?: AbortSignal) =>
  get<RecordOption[]>(`${EVENTS_URL}${encodeURIComponent(event)}/records/`, { params: { search }, signal });
export const fetchTemplates = (event: string | undefined, signal?: AbortSignal) =>
  get<Paginated<EmailTemplate>>(TEMPLATES_URL, { params: { page_size: 200, ordering: 'name', ...(event ? { event } : {}) }, signal });
export const saveTemplate = (id: number | undefined, input: EmailTemplateInput) =>
  id === undefined ? post<EmailTemplate>(TEMPLATES_URL, input) : put<EmailTemplate>(`${TEMPLATES_URL}${id}/`, input);
export const deleteTemplate = (id: number) => del(`${TEMPLATES_URL}${id}/`);
export const previewTemplate = (input: TemplatePreviewInput) => post<Preview>(`${TEMPLATES_URL}preview/`, input);

export const saveScenario = (id: number | undefined, input: EmailScenarioInput) =>
  id === undefined ? post<EmailScenario>(SCENARIOS_URL, input) : put<EmailScenario>(`${SCENARIOS_URL}${id}/`, input);
export const deleteScenario = (id: number) => del(`${SCENARIOS_URL}${id}/`);
export const previewScenario = (id: number, body: ScenarioActionInput) => post<Preview>(`${SCENARIOS_URL}${id}/preview/`, body);
export const sendTestScenario = (id: number, body: ScenarioActionInput) =>
  post<EmailMessageDetail>(`${SCENARIOS_URL}${id}/send-test/`, body);

export const fetchMessage = (id: number, signal?: AbortSignal) => get<EmailMessageDetail>(`${LOG_URL}${id}/`, { signal });
export const resendMessage = (id: number) => post<EmailMessageDetail>(`${LOG_URL}${id}/resend/`);
/** A failed or maybe-sent message queued again: the same message and Message-ID, one more try. */
export const retryMessage = (id: number) => post<EmailMessageDetail>(`${LOG_URL}${id}/retry/`);
export const fetchHealth = (signal?: AbortSignal) => get<EmailHealth>(`${LOG_URL}health/`, { signal });
export const downloadAttachment = (messageId: number, attachmentId: number) =>
  download(`${LOG_URL}${messageId}/attachments/${attachmentId}/`);
export const downloadEml = (messageId: number) => download(`${LOG_URL}${messageId}/eml/`);

export const fetchSmtp = (signal?: AbortSignal) => get<SmtpSettings>(SMTP_URL, { signal });
export const saveSmtp = (input: Partial<SmtpSettingsInput>) => put<SmtpSettings>(SMTP_URL, input);
export const deleteSmtp = () => del(SMTP_URL);
export const testSmtp = (input?: Partial<SmtpSettingsInput>) => post<SmtpTestResult>(`${SMTP_URL}test/`, input ?? {});

export const fetchRoles = (signal?: AbortSignal) => get<Paginated<Role>>(ROLES_URL, { params: { page_size: 200 }, signal });
export const fetchDepartments = (signal?: AbortSignal) =>
  get<Paginated<Department>>(DEPARTMENTS_URL, { params: { page_size: 200 }, signal });

/* ---------- hooks ---------- */

const useTenant = () => useSession((s) => s.tenantId);

export function useEvents() {
  const tenant = useTenant();
  return useQuery({ queryKey: [EVENTS_URL, tenant], queryFn: ({ signal }) => fetchEvents(signal), staleTime: 5 * 60_000 });
}

export function useEventMap() {
  const events = useEvents();
  const map = new Map((events.data ?? []).map((event) => [event.name, event]));
  return { ...events, map };
}

export function useTemplatesOf(event: string | undefined) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [TEMPLATES_URL, 'of', tenant, event ?? ''],
    queryFn: ({ signal }) => fetchTemplates(event, signal),
    enabled: Boolean(event),
  });
}

export function useEventRecords(event: string | undefined, search: string) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [EVENTS_URL, 'records', tenant, event ?? '', search],
    queryFn: ({ signal }) => fetchEventRecords(event ?? '', search, signal),
    enabled: Boolean(event),
  });
}

export function useRolesAndDepartments(enabled: boolean) {
  const tenant = useTenant();
  const roles = useQuery({ queryKey: [ROLES_URL, 'all', tenant], queryFn: ({ signal }) => fetchRoles(signal), enabled });
  const departments = useQuery({
    queryKey: [DEPARTMENTS_URL, 'all', tenant],
    queryFn: ({ signal }) => fetchDepartments(signal),
    enabled,
  });
  return { roles: roles.data?.results ?? [], departments: departments.data?.results ?? [] };
}

export function useMessage(id: number | undefined) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [LOG_URL, 'detail', tenant, id],
    queryFn: ({ signal }) => fetchMessage(id ?? 0, signal),
    enabled: id !== undefined,
  });
}

export function useSmtp() {
  const tenant = useTenant();
  return useQuery({ queryKey: [SMTP_URL, tenant], queryFn: ({ signal }) => fetchSmtp(signal), retry: false });
}

export function useInvalidateEmail() {
  const client = useQueryClient();
  return () =>
    Promise.all([TEMPLATES_URL, SCENARIOS_URL, LOG_URL, SMTP_URL].map((key) => client.invalidateQueries({ queryKey: [key] })));
}

/** Delivery health (counts by status, failed and maybe-sent messages); refreshed every 30 s while shown. */
export function useEmailHealth() {
  const tenant = useTenant();
  return useQuery({ queryKey: [LOG_URL, 'health', tenant], queryFn: ({ signal }) => fetchHealth(signal), refetchInterval: 30_000 });
}

export function useRetryMessage() {
  const invalidate = useInvalidateEmail();
  return useMutation({ mutationFn: retryMessage, onSuccess: () => invalidate() });
}

export function useResend() {
  const invalidate = useInvalidateEmail();
  return useMutation({ mutationFn: resendMessage, onSuccess: () => invalidate() });
}
