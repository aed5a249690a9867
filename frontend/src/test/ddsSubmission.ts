import type { components } from '@/api/schema';

type DdsSubmission = components['schemas']['DdsSubmission'];

/** A statement as filed from the product and made available by the EU information system (the tests of
 * the delivery's filing card and of an import's statement card start from it). */
export function ddsSubmission(overrides: Partial<DdsSubmission> = {}): DdsSubmission {
  return {
    id: 5,
    internal_reference: 'DLV-2026-001-AB12CD34',
    environment: 'acceptance',
    status: 'available',
    pending_action: '',
    uuid: '071874bd-8c62-4cac-8eb6-b2fbe003410c',
    reference_number: '26NLX7TVCZAQ2S',
    verification_number: 'SFFCB4Y3',
    system_status: 'AVAILABLE',
    messages: [],
    last_error: '',
    submitted_at: '2026-12-30T09:00:00Z',
    amended_at: null,
    withdrawn_at: null,
    checked_at: '2026-12-30T09:00:02Z',
    status_due_at: null,
    created_at: '2026-12-30T09:00:00Z',
    window_ends_at: '2027-01-02T09:00:00Z',
    can_amend: true,
    can_withdraw: true,
    events: [],
    ...overrides,
  };
}
