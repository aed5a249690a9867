import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { PlacingPreview, PlacingStatement } from './api';
import { renderAt } from '@/test/renderAt';
import { PlacingStatementCard } from './PlacingStatementCard';

const URL = '/api/eudr/placing-statements/';
const PREVIEW = `${URL}preview/`;

function statement(overrides: Partial<PlacingStatement> = {}): PlacingStatement {
  return {
    id: 9,
    internal_reference: 'MSKU1234565-AB12CD34',
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
    checked_at: '2026-12-30T09:30:02Z',
    status_due_at: null,
    created_at: '2026-12-30T09:00:00Z',
    window_ends_at: '2027-01-02T09:00:00Z',
    can_amend: true,
    can_withdraw: true,
    events: [],
    customs_declaration_number: '26NL00000012345678',
    customs_declaration_date: '2026-12-30',
    shipments: [{ id: 4, container_number: 'MSKU1234565' }],
    cartons: 5,
    net_weight_kg: '4.250',
    ...overrides,
  };
}

function preview(overrides: Partial<PlacingPreview> = {}): PlacingPreview {
  return {
    cartons: 5,
    cartons_covered: 0,
    net_weight_kg: '4.250',
    commodities: [
      { hs_heading: '481910', cartons: 2, net_weight_kg: '1.700', description: 'Export carton (CT-4711)' },
      { hs_heading: '481920', cartons: 3, net_weight_kg: '2.550', description: 'Folding box (CT-4711-B)' },
    ],
    deliveries: [{ id: 12, delivery_number: 'DLV-2026-001', supplier: 'Evergreen', country: 'FI', upstream_reference: '' }],
    statements: [],
    account_ready: true,
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

const renderCard = (mayChange = true) => renderAt('/x', '/x', <PlacingStatementCard shipments={[4]} mayChange={mayChange} />);

describe('the statement of an import', () => {
  it('shows what the container holds per HS heading and files the statement after a confirmation', async () => {
    server.on('GET', PREVIEW, ok(preview()));
    server.on('POST', URL, ok(statement({ status: 'submitted', reference_number: '', verification_number: '' })));
    const user = userEvent.setup({ delay: null });
    renderCard();
    expect(await screen.findByTestId('placing-uncovered')).toHaveTextContent('5 cartons (4.250 kg) are not covered');
    expect(screen.getByTestId('placing-commodities')).toHaveTextContent('481920');
    await user.type(screen.getByTestId('placing-customs-number'), '26nl00000012345678');
    await user.click(screen.getByTestId('placing-file'));
    // the date goes with the number
    await user.click(await screen.findByTestId('placing-file-confirm'));
    expect(await screen.findByText('Enter the date of the customs declaration.')).toBeInTheDocument();
    expect(server.count('POST', URL)).toBe(0);
    await user.type(screen.getByTestId('placing-customs-date'), '2026-12-30{Enter}');
    await user.click(screen.getByTestId('placing-file'));
    await user.click(await screen.findByTestId('placing-file-confirm'));
    await waitFor(() => expect(server.count('POST', URL)).toBe(1));
    const sent = JSON.parse(String(server.requests.find((r) => r.method === 'POST')?.data)) as Record<string, unknown>;
    expect(sent).toEqual({ shipments: [4], customs_declaration_number: '26NL00000012345678', customs_declaration_date: '2026-12-30' });
  });

  it('shows the covering statement with the reference the customs broker needs', async () => {
    server.on('GET', PREVIEW, ok(preview({ cartons: 0, cartons_covered: 5, commodities: [], statements: [statement()] })));
    renderCard();
    expect(await screen.findByTestId('placing-reference')).toHaveTextContent('26NLX7TVCZAQ2S');
    expect(screen.getByTestId('placing-status')).toHaveTextContent('Available');
    expect(screen.getByTestId('placing-all-covered')).toHaveTextContent('All 5 cartons');
    expect(screen.queryByTestId('placing-file')).not.toBeInTheDocument();
  });

  it('says so when the container holds no labelled carton, and files nothing without the permission', async () => {
    server.on('GET', PREVIEW, ok(preview({ cartons: 0, commodities: [], deliveries: [] })));
    renderCard(false);
    expect(await screen.findByTestId('placing-empty')).toBeInTheDocument();
    expect(screen.queryByTestId('placing-form')).not.toBeInTheDocument();
  });

  it('shows the refusal in words when a carton is already covered', async () => {
    server.on('GET', PREVIEW, ok(preview()));
    server.on('POST', URL, fail(409, 'Every carton of these containers is already covered by 26NLX7TVCZAQ2S', 'cartons_already_covered'));
    const user = userEvent.setup({ delay: null });
    renderCard();
    await user.click(await screen.findByTestId('placing-file'));
    await user.click(await screen.findByTestId('placing-file-confirm'));
    expect(await screen.findByTestId('placing-error')).toHaveTextContent('already covered by 26NLX7TVCZAQ2S');
  });
});
