/** The scenario form's values and the API's scenario, both ways (a recipient's `role` is a contact
 * role or a role id in the API; the form keeps them apart). */
import { type ConditionInput, type EmailScenario, type EmailScenarioInput, NO_VALUE_OPERATORS, type RecipientType } from '../api/notifications';

export type { RecipientType };

/** A recipient as the form edits it (the API's `role` is a contact role or a role id). */
export interface RecipientRow {
  type: RecipientType;
  contact?: string;
  match?: string;
  address?: string;
  role_id?: number;
  department?: number;
}

export interface ConditionRow {
  field?: string;
  operator?: string;
  value?: string;
}

export interface FormValues {
  name: string;
  event?: string;
  enabled: boolean;
  template?: number;
  conditions: ConditionRow[];
  recipients: RecipientRow[];
  attachments: string[];
  delay_minutes: number;
  days: number;
  language: 'recipient' | 'en' | 'zh';
}

export function toRows(scenario: EmailScenario | undefined): FormValues {
  if (!scenario) {
    return { name: '', enabled: true, conditions: [], recipients: [{ type: 'contact' }], attachments: [], delay_minutes: 0, days: 7, language: 'recipient' };
  }
  return {
    name: scenario.name,
    event: scenario.event,
    enabled: scenario.enabled ?? true,
    template: scenario.template,
    conditions: (scenario.conditions ?? []).map((c) => ({
      field: c.field,
      operator: c.operator,
      value: Array.isArray(c.value) ? (c.value as unknown[]).map(String).join(', ') : typeof c.value === 'string' || typeof c.value === 'number' ? String(c.value) : '',
    })),
    recipients: scenario.recipients.map((r) => ({
      type: r.type,
      contact: r.type === 'contact' && typeof r.role === 'string' ? r.role : undefined,
      match: r.match,
      address: r.address,
      role_id: r.type === 'role' ? Number(r.role) : undefined,
      department: r.department,
    })),
    attachments: scenario.attachments ?? [],
    delay_minutes: scenario.delay_minutes ?? 0,
    days: scenario.days ?? 7,
    language: scenario.language ?? 'recipient',
  };
}

export function toInput(values: FormValues): EmailScenarioInput {
  return {
    name: values.name.trim(),
    event: values.event ?? '',
    enabled: values.enabled,
    template: values.template ?? 0,
    conditions: (values.conditions ?? []).map((c) => ({
      field: c.field ?? '',
      operator: (c.operator ?? 'eq') as ConditionInput['operator'],
      value: NO_VALUE_OPERATORS.includes(c.operator ?? '') ? '' : (c.value ?? ''),
    })),
    recipients: (values.recipients ?? []).map((r) => {
      switch (r.type) {
        case 'contact':
          return { type: 'contact' as const, role: r.contact ?? '', match: r.match ?? '' };
        case 'address':
          return { type: 'address' as const, address: (r.address ?? '').trim() };
        case 'role':
          return { type: 'role' as const, role: r.role_id ?? 0 };
        default:
          return { type: 'department' as const, department: r.department ?? 0 };
      }
    }),
    attachments: values.attachments ?? [],
    delay_minutes: values.delay_minutes ?? 0,
    days: values.days ?? 7,
    language: values.language,
  };
}

