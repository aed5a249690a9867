import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { SyncEntry } from '../api/accounting';

const URL = '/api/accounting/sync-log/';

function entry(overrides: Partial<SyncEntry>): SyncEntry {
  return {
    id: 1,
    idempotency_key: 'invoice:1',
    kind: 'invoice',
    record_id: 1,
    record_label: 'INV-2026-00001',
    action: 'create',
    status: 'sent',
    attempts: 1,
    next_attempt_at: null,
    external_id: 'INV-2026-00001',
    error: '',
    http_status: null,
    depends_on: null,
    created_at: '2026-11-24T01:00:00Z',
    updated_at: '2026-11-24T01:00:00Z',
    sent_at: '2026-11-24T01:00:00Z',
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'EuroTrade Goods BV' }]));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

const rows = [
  entry({ id: 1 }),
  entry({ id: 2, record_label: 'CN-2026-00001', kind: 'credit_note', status: 'failed', external_id: '', error: 'Error: VatCode 1 is not valid.' }),
];

describe('the sync log page', () => {
  it('lists the entries with their message, filters by status, retries and skips after confirmation', async () => {
    signIn({ tenant: '3', user: makeUser({ permissions: ['accounting.manage'] }) });
    server.on('GET', URL, ok({ count: 2, next: null, previous: null, results: rows }));
    server.on('POST', `${URL}2/retry/`, ok(entry({ id: 2, status: 'pending' })));
    server.on('POST', `${URL}2/skip/`, ok(entry({ id: 2, status: 'skipped' })));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting/sync-log');
    expect(await screen.findByTestId('sync-error-2')).toHaveTextContent('Error: VatCode 1 is not valid.');
    expect(screen.getByText('CN-2026-00001')).toBeInTheDocument();
    expect(screen.queryByTestId('sync-retry-1')).toBeNull(); // a sent entry has no actions
    await user.click(screen.getByTestId('sync-retry-2'));
    expect(server.count('POST', `${URL}2/retry/`)).toBe(0);
    const confirm = await screen.findByRole('tooltip');
    await user.click(within(confirm).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(server.count('POST', `${URL}2/retry/`)).toBe(1));
    await user.click(screen.getByTestId('sync-skip-2'));
    const tips = await screen.findAllByRole('tooltip');
    await user.click(within(tips.at(-1) as HTMLElement).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(server.count('POST', `${URL}2/skip/`)).toBe(1));
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByTitle('Failed'));
    await waitFor(() => expect(server.requests.some((r) => r.url.startsWith(URL) && r.params.status === 'failed')).toBe(true));
  });

  it('is read-only without the manage permission', async () => {
    signIn({ tenant: '3', user: makeUser({ permissions: ['accounting.view_syncentry'] }) });
    server.on('GET', URL, ok({ count: 2, next: null, previous: null, results: rows }));
    renderApp('/settings/accounting/sync-log');
    expect(await screen.findByTestId('sync-error-2')).toBeInTheDocument();
    expect(screen.queryByTestId('sync-retry-2')).toBeNull();
    expect(screen.queryByTestId('sync-skip-2')).toBeNull();
  });
});
