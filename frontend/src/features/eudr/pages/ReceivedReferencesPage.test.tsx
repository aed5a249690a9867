import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, created, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { ReceivedReference } from '../api/receivedReferences';
import { renderAt } from '../test/harness';
import ReceivedReferencesPage from './ReceivedReferencesPage';

const URL = '/api/eudr/received-references/';

function reference(overrides: Partial<ReceivedReference> = {}): ReceivedReference {
  return {
    id: 7,
    parent_vendor: 4,
    parent_vendor_name: 'Shanghai Evergreen Packaging',
    document_number: 'DN-2026-118',
    received_on: '2026-11-20',
    reference_number: '26NLX7TVCZAQ2S',
    verification_number: 'SFFCB4Y3',
    kind: 'dds',
    notes: '',
    keep_until: '2031-11-20',
    verification_result: '',
    verification_status: '',
    verified_at: null,
    verification_message: 'No TRACES account is set up in the company settings.',
    created_at: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

const page = (results: ReceivedReference[]) => ok({ count: results.length, next: null, previous: null, results });

let server: MockServer;

function setUp({ sme = true, rows = [reference()] }: { sme?: boolean; rows?: ReceivedReference[] } = {}) {
  server.on('GET', URL, page(rows));
  server.on('GET', '/api/tenants/current/', ok({ eudr_is_sme: sme }));
  server.on('GET', '/api/suppliers/parent-vendors/', page([{ id: 4, name: 'Shanghai Evergreen Packaging', cname: '' } as never]));
}

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '2', user: makeUser() });
});

afterEach(() => server.restore());

const renderPage = () => renderAt('/purchase/eudr/received-references', '/purchase/eudr/received-references', <ReceivedReferencesPage />);

describe('the received reference numbers page', () => {
  it('lists the kept references with their kind and verification', async () => {
    setUp();
    renderPage();
    expect(await screen.findByTestId('received-reference-7')).toHaveTextContent('26NLX7TVCZAQ2S');
    const row = screen.getByTestId('received-reference-7').closest('tr') as HTMLElement;
    expect(within(row).getByText('Shanghai Evergreen Packaging')).toBeInTheDocument();
    expect(within(row).getByText('DN-2026-118')).toBeInTheDocument();
    expect(within(row).getByText('Statement')).toBeInTheDocument();
    expect(within(row).getByText('SFFCB4Y3')).toBeInTheDocument();
    expect(screen.getByTestId('received-result-7')).toHaveTextContent('Not checked');
  });

  it('checks the reference in the browser, then records it', async () => {
    setUp();
    let body: unknown = null;
    server.on('POST', URL, (config) => {
      body = JSON.parse(String(config.data));
      return created(reference({ id: 8, reference_number: 'S26FRNMNBSA96Q', kind: 'sd' }));
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByTestId('received-new'));
    const form = await screen.findByTestId('received-form');
    await user.click(within(form).getByRole('combobox', { name: 'Supplier' }));
    await user.click(await screen.findByTitle('Shanghai Evergreen Packaging'));
    await user.type(within(form).getByTestId('received-document'), 'DN-2026-200');
    await user.type(within(form).getByTestId('received-reference'), 'S26FR-NMNBSA96');
    await user.type(within(form).getByTestId('received-verification'), 'KX82PQ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(/No spaces or hyphens inside/)).toBeInTheDocument();
    expect(server.count('POST', URL)).toBe(0);

    await user.clear(within(form).getByTestId('received-reference'));
    await user.type(within(form).getByTestId('received-reference'), ' s26frnmnbsa96q ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.count('POST', URL)).toBe(1));
    expect(body).toMatchObject({
      parent_vendor: 4,
      document_number: 'DN-2026-200',
      reference_number: 'S26FRNMNBSA96Q',
      verification_number: 'KX82PQ',
    });
    expect((body as { received_on: string }).received_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('shows the server field errors in the form', async () => {
    setUp();
    server.on('POST', URL, fail(400, 'Invalid input', 'validation_error', { document_number: ['This document already has this reference.'] }));
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByTestId('received-new'));
    const form = await screen.findByTestId('received-form');
    await user.click(within(form).getByRole('combobox', { name: 'Supplier' }));
    await user.click(await screen.findByTitle('Shanghai Evergreen Packaging'));
    await user.type(within(form).getByTestId('received-document'), 'DN-2026-118');
    await user.type(within(form).getByTestId('received-reference'), '26NLX7TVCZAQ2S');
    await user.type(within(form).getByTestId('received-verification'), 'SFFCB4Y3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('This document already has this reference.')).toBeInTheDocument();
  });

  it('verifies again and shows the new answer', async () => {
    setUp();
    const verified = reference({ verification_result: 'EXISTING_USABLE', verification_status: 'AVAILABLE', verified_at: '2026-11-27T08:00:00Z', verification_message: '' });
    server.on('POST', `${URL}7/verify/`, () => {
      server.on('GET', URL, page([verified]));
      return ok(verified);
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    expect(await screen.findByTestId('received-result-7')).toHaveTextContent('Not checked');
    await user.click(screen.getByTestId('received-verify-7'));
    await waitFor(() => expect(screen.getByTestId('received-result-7')).toHaveTextContent('Exists and may be relied on'));
    expect(await screen.findByText('Verified: Exists and may be relied on')).toBeInTheDocument();
    expect(server.count('POST', `${URL}7/verify/`)).toBe(1);
  });

  it('asks before deleting and shows why a kept reference stays', async () => {
    setUp();
    server.on('DELETE', `${URL}7/`, fail(409, 'A received reference number is kept for 5 years; it can only be deleted on the day it was entered.', 'received_reference_retained'));
    const user = userEvent.setup({ delay: null });
    renderPage();
    const row = (await screen.findByTestId('received-reference-7')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(server.count('DELETE', `${URL}7/`)).toBe(0);
    const confirm = await screen.findByRole('tooltip');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/kept for 5 years/)).toBeInTheDocument();
    expect(server.count('DELETE', `${URL}7/`)).toBe(1);
  });

  it('offers the referenced statement to a company that is not an SME, and not to an SME', async () => {
    setUp({ sme: false });
    server.on('GET', `${URL}7/statement/`, ok({
      activity_type: 'IMPORT',
      geolocation_confidential: false,
      commodities: [{ hs_heading: '4707', description: 'Recovered paper', net_weight: '12000', species: [], producer_countries: ['NL', 'DE'] }],
    }));
    const user = userEvent.setup({ delay: null });
    const first = renderPage();
    await user.click(await screen.findByTestId('received-statement-7'));
    const statement = await screen.findByTestId('referenced-statement');
    expect(statement).toHaveTextContent('Import');
    expect(statement).toHaveTextContent('4707');
    expect(statement).toHaveTextContent('Recovered paper');
    expect(statement).toHaveTextContent('NL');
    first.unmount();

    setUp({ sme: true });
    renderPage();
    await screen.findByTestId('received-reference-7');
    await waitFor(() => expect(server.count('GET', '/api/tenants/current/')).toBeGreaterThanOrEqual(2));
    expect(screen.queryByTestId('received-statement-7')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Read statement' })).not.toBeInTheDocument();
  });
});
