import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { Connection } from '../api/accounting';
import { goTo } from '../navigation';

vi.mock('../navigation', () => ({ goTo: vi.fn() }));

const URL = '/api/accounting/connection/';

function connection(overrides: Partial<Connection> = {}): Connection {
  return {
    provider: 'visma_net',
    enabled: true,
    base_url: 'https://sandbox.example/v1/',
    token_url: 'https://sandbox.example/token',
    client_id: 'cartontrace',
    has_client_secret: true,
    has_refresh_token: false,
    unreadable_secrets: [],
    scope: '',
    company_id: '1234567',
    supplier_level: 'supplier',
    options: {},
    access_token_expires_at: null,
    last_test_at: null,
    last_test_ok: null,
    last_test_message: '',
    first_sync_at: null,
    updated_at: '2026-11-24T02:00:00Z',
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'EuroTrade Goods BV' }]));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ tenant: '3', user: makeUser({ name: 'Ada', permissions: ['accounting.manage'] }) });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

function bodyOf(method: string): Record<string, unknown> {
  const request = server.requests.find((r) => r.method === method && r.url.startsWith(URL));
  expect(request).toBeDefined();
  return JSON.parse(String(request?.data)) as Record<string, unknown>;
}

describe('the accounting connection page', () => {
  it('without a connection: validates, fills the provider defaults and saves the secret write-only', async () => {
    server.on('GET', URL, fail(404, 'No accounting connection is set up for this company.', 'accounting_connection_missing'));
    server.on('PUT', URL, (config) => ok(connection({ ...(JSON.parse(String(config.data)) as Partial<Connection>), has_client_secret: true })));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting');
    expect(await screen.findByText(/No accounting system is connected yet/)).toBeInTheDocument();
    expect(screen.getByLabelText('API base URL')).toHaveValue('https://api.finance.visma.net/v1/');
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    expect(server.count('PUT', URL)).toBe(0);
    await user.click(screen.getByLabelText('Client id'));
    await user.paste('cartontrace');
    await user.click(screen.getByLabelText('Client secret'));
    await user.paste('s3cret');
    await user.clear(screen.getByLabelText('Token URL'));
    await user.click(screen.getByLabelText('Token URL'));
    await user.paste('not a url');
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText('Enter an http or https address')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Token URL'));
    await user.click(screen.getByLabelText('Token URL'));
    await user.paste('https://connect.visma.com/connect/token');
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(server.count('PUT', URL)).toBe(1));
    expect(bodyOf('PUT')).toMatchObject({ provider: 'visma_net', client_id: 'cartontrace', client_secret: 's3cret' });
    await waitFor(() => expect(screen.getByLabelText('Client secret')).toHaveValue(''));
  });

  it('tests the stored connection and says what is wrong in words', async () => {
    server.on('GET', URL, ok(connection()));
    server.on('POST', `${URL}test/`, ok({ ok: false, message: 'The client id or client secret is wrong (invalid_client).' }));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting');
    await user.click(await screen.findByTestId('connection-test'));
    expect(await screen.findByTestId('connection-test-result')).toHaveTextContent('The client id or client secret is wrong (invalid_client).');
    expect(screen.getByText('A secret is stored. Leave empty to keep it.')).toBeInTheDocument();
  });

  it('shows the dry run before the first sync and starts the sync after confirmation', async () => {
    server.on('GET', URL, ok(connection()));
    server.on(
      'GET',
      '/api/accounting/dry-run/',
      ok({
        masters: [{ kind: 'customer', record_id: 1, label: 'C-1001 Bakkerij de Vries BV', action: 'create' }],
        documents: [{ kind: 'invoice', record_id: 5, label: 'INV-2026-00001', action: 'create' }],
      }),
    );
    server.on('POST', '/api/accounting/sync/', ok({ queued: 1 }));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting');
    await user.click(await screen.findByTestId('dry-run'));
    expect(await screen.findByText('C-1001 Bakkerij de Vries BV')).toBeInTheDocument();
    expect(screen.getByText('INV-2026-00001')).toBeInTheDocument();
    expect(server.count('POST', '/api/accounting/sync/')).toBe(0);
    await user.click(screen.getByTestId('sync-now'));
    const confirm = await screen.findByRole('tooltip');
    await user.click(within(confirm).getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(server.count('POST', '/api/accounting/sync/')).toBe(1));
  });

  it('says which stored secrets the installation can no longer read, so they are entered again', async () => {
    server.on('GET', URL, ok(connection({ has_client_secret: false, unreadable_secrets: ['client_secret'] })));
    renderApp('/settings/accounting');
    expect(await screen.findByTestId('accounting-secrets-unreadable')).toHaveTextContent(
      "Stored secrets can no longer be read with this installation's encryption keys (client_secret). Enter them again and save.",
    );
  });

  it('eAccounting: shows the redirect URI and sends the browser to Visma with the server\'s authorization URL', async () => {
    const authorize = 'https://identity.vismaonline.com/connect/authorize?client_id=cartontrace&state=abc';
    server.on('GET', URL, ok(connection({ provider: 'visma_eaccounting', has_refresh_token: false })));
    server.on('GET', '/api/accounting/oauth/redirect-uri/', ok({ redirect_uri: 'https://trace.example.com/settings/accounting/callback' }));
    server.on('POST', '/api/accounting/oauth/start/', ok({ authorization_url: authorize, redirect_uri: 'https://trace.example.com/settings/accounting/callback', expires_at: '2026-11-24T06:10:00Z' }));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting');
    expect(await screen.findByTestId('redirect-uri')).toHaveTextContent('https://trace.example.com/settings/accounting/callback');
    expect(screen.getByLabelText('Refresh token')).toBeInTheDocument(); // typing it by hand stays possible
    await user.click(screen.getByTestId('connect-eaccounting'));
    await waitFor(() => expect(goTo).toHaveBeenCalledWith(authorize));
    expect(server.count('POST', '/api/accounting/oauth/start/')).toBe(1);
  });

  it('eAccounting: a refused start is said in words and the browser stays', async () => {
    vi.mocked(goTo).mockClear();
    server.on('GET', URL, ok(connection({ provider: 'visma_eaccounting', has_refresh_token: true })));
    server.on('GET', '/api/accounting/oauth/redirect-uri/', ok({ redirect_uri: 'http://localhost/settings/accounting/callback' }));
    server.on('POST', '/api/accounting/oauth/start/', fail(400, 'Enter the client secret.', 'accounting_secret_required'));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting');
    expect(await screen.findByText('Authorised: a refresh token is stored.')).toBeInTheDocument();
    await user.click(screen.getByTestId('connect-eaccounting'));
    expect(await screen.findByTestId('connect-error')).toHaveTextContent('Enter the client secret.');
    expect(goTo).not.toHaveBeenCalled();
  });

  it('eAccounting not saved yet: the connect button waits for the saved connection', async () => {
    server.on('GET', URL, ok(connection({ provider: 'visma_net' })));
    server.on('GET', '/api/accounting/oauth/redirect-uri/', ok({ redirect_uri: 'http://localhost/settings/accounting/callback' }));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/accounting');
    await user.click(await screen.findByLabelText('Accounting system'));
    await user.click(await screen.findByTitle('Visma eAccounting'));
    expect(await screen.findByTestId('connect-eaccounting')).toBeDisabled();
    expect(screen.getByText(/Save the connection with Visma eAccounting/)).toBeInTheDocument();
  });
});
