import { describe, expect, it } from 'vitest';
import type { EmailScenario } from '../api/notifications';
import { toInput, toRows } from './scenarioForm';

const scenario: EmailScenario = {
  id: 4,
  name: 'Tell the vendor',
  event: 'purchase_order.sent',
  event_label: 'Purchase order created',
  enabled: true,
  conditions: [
    { field: 'order.status', operator: 'in', value: ['open', 'on_hold'] },
    { field: 'order.total', operator: 'gt', value: '100' },
  ],
  recipients: [
    { type: 'contact', role: 'supplier', match: 'Sales' },
    { type: 'address', address: 'a@x.example' },
    { type: 'role', role: 7 },
    { type: 'department', department: 2 },
  ],
  template: 9,
  template_name: 'PO',
  attachments: [],
  delay_minutes: 5,
  days: 7,
  language: 'recipient',
  created_at: '2026-03-01T00:00:00Z',
  updated_at: '2026-03-01T00:00:00Z',
};

describe('scenario form mapping', () => {
  it('keeps contact roles and role ids apart in the form', () => {
    const rows = toRows(scenario);
    expect(rows.recipients).toEqual([
      { type: 'contact', contact: 'supplier', match: 'Sales', address: undefined, role_id: undefined, department: undefined },
      { type: 'address', contact: undefined, match: undefined, address: 'a@x.example', role_id: undefined, department: undefined },
      { type: 'role', contact: undefined, match: undefined, address: undefined, role_id: 7, department: undefined },
      { type: 'department', contact: undefined, match: undefined, address: undefined, role_id: undefined, department: 2 },
    ]);
    expect(rows.conditions[0]).toEqual({ field: 'order.status', operator: 'in', value: 'open, on_hold' });
  });

  it('gives the API back what it sent, and drops values of operators without one', () => {
    const input = toInput({ ...toRows(scenario), conditions: [{ field: 'order.description', operator: 'is_empty', value: 'x' }] });
    expect(input.recipients).toEqual([
      { type: 'contact', role: 'supplier', match: 'Sales' },
      { type: 'address', address: 'a@x.example' },
      { type: 'role', role: 7 },
      { type: 'department', department: 2 },
    ]);
    expect(input.conditions).toEqual([{ field: 'order.description', operator: 'is_empty', value: '' }]);
    expect(input.template).toBe(9);
    expect(input.delay_minutes).toBe(5);
  });

  it('starts a new scenario enabled, in the recipient language, with one contact row', () => {
    const rows = toRows(undefined);
    expect(rows.enabled).toBe(true);
    expect(rows.language).toBe('recipient');
    expect(rows.recipients).toEqual([{ type: 'contact' }]);
  });
});
