import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { Mapping } from '../api/accounting';

const URL = '/api/accounting/mappings/';

const mapping: Mapping = {
  id: 7,
  kind: 'customer',
  local_key: '1',
  local_label: 'C-1001 Bakkerij de Vries BV',
  external_id: 'C-1001',
  payload_hash: 'abc',
  pushed_at: '2026-11-24T01:00:00Z',
  external_status: '',
  external_open_amount: null,
  status_read_at: null,
  updated_at: '2026-11-24T01:00:00Z',
};

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'EuroTrade Goods BV' }]));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ tenant: '3', user: makeUser({ permissions: ['accounting.manage'] }) });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('the mappings page', () => {
  it('lists, searches, edits an external id and maps a VAT code', async () => {
    server.on('GET', URL, ok({ count: 1, next: null, previous: null, results: [mapping] }));
    server.on('PATCH', `${URL}7/`, (config) => ok({ ...mapping, ...(JSON.parse(String(config.data)) as object) }));
    server.on('POST', URL, (config) => ok({ ...mapping, id: 8, ...(JSON.parse(String(config.data)) as object) }));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting/mappings');
    expect(await screen.findByText('C-1001 Bakkerij de Vries BV')).toBeInTheDocument();
    await user.click(screen.getByTestId('mapping-edit-7'));
    const field = await screen.findByTestId('mapping-external-id');
    await user.clear(field);
    await user.click(field);
    await user.paste('10001');
    await user.click(screen.getByTestId('mapping-save'));
    await waitFor(() => expect(server.count('PATCH', `${URL}7/`)).toBe(1));
    const patchBody = server.requests.find((r) => r.method === 'PATCH');
    expect(JSON.parse(String(patchBody?.data))).toEqual({ external_id: '10001' });

    await user.click(screen.getByTestId('mapping-add'));
    await user.click(await screen.findByLabelText('VAT rate (%) or payment term (days)'));
    await user.paste('21');
    await user.click(screen.getByTestId('mapping-external-id'));
    await user.paste('3');
    await user.click(screen.getAllByTestId('mapping-save').at(-1) as HTMLElement);
    await waitFor(() => expect(server.count('POST', URL)).toBe(1));
    const postBody = server.requests.find((r) => r.method === 'POST' && r.url === URL);
    expect(JSON.parse(String(postBody?.data))).toEqual({ kind: 'vat_code', local_key: '21', external_id: '3' });
  });
});
