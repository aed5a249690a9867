import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';

const CALLBACK = '/api/accounting/oauth/callback/';
const STATE = 'JSePsOjmOvrhGtyPLUODl5ZNoGErD1UTo8sxx5L96cc';

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'EuroTrade Goods BV' }]));
  server.on('GET', '/api/accounting/connection/', fail(404, 'No accounting connection is set up for this company.', 'accounting_connection_missing'));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ tenant: '3', user: makeUser({ name: 'Ada', permissions: ['accounting.manage'] }) });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

function posted(): Record<string, unknown>[] {
  return server.requests.filter((r) => r.method === 'POST' && r.url.startsWith(CALLBACK)).map((r) => JSON.parse(String(r.data)) as Record<string, unknown>);
}

describe('the eAccounting callback page', () => {
  it('posts code and state once and says the connection is made', async () => {
    server.on('POST', CALLBACK, ok({ ok: true, message: 'Connected to Visma eAccounting, company Demo AB.' }));
    const user = userEvent.setup({ delay: null });
    const { router } = renderApp(`/settings/accounting/callback?code=code-123&state=${STATE}`);
    expect(await screen.findByText('Connected to Visma eAccounting')).toBeInTheDocument();
    expect(screen.getByText('Connected to Visma eAccounting, company Demo AB.')).toBeInTheDocument();
    expect(posted()).toEqual([{ state: STATE, code: 'code-123' }]);
    await user.click(screen.getByTestId('callback-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/accounting'));
  });

  it('shows the server\'s words when the state was used or expired', async () => {
    server.on('POST', CALLBACK, fail(400, 'This authorisation has been used already. Start the connection again if needed.', 'accounting_state_used'));
    renderApp(`/settings/accounting/callback?code=code-456&state=${STATE}x`);
    expect(await screen.findByText('The connection was not made')).toBeInTheDocument();
    expect(screen.getByText('This authorisation has been used already. Start the connection again if needed.')).toBeInTheDocument();
    expect(posted()).toHaveLength(1);
  });

  it('passes Visma\'s access_denied on and shows why', async () => {
    server.on('POST', CALLBACK, fail(400, 'The authorisation was cancelled or refused in Visma; nothing was changed.', 'accounting_authorization_denied'));
    renderApp(`/settings/accounting/callback?error=access_denied&error_description=User+cancelled&state=${STATE}y`);
    expect(await screen.findByText('The authorisation was cancelled or refused in Visma; nothing was changed.')).toBeInTheDocument();
    expect(posted()).toEqual([{ state: `${STATE}y`, error: 'access_denied', error_description: 'User cancelled' }]);
  });

  it('connected but the test found another company: a warning with the test message', async () => {
    server.on('POST', CALLBACK, ok({ ok: false, message: 'These credentials belong to the company Other AB (556000-0000), not to 1234567.' }));
    renderApp(`/settings/accounting/callback?code=c&state=${STATE}z`);
    expect(await screen.findByText(/Connected, but the connection test says: These credentials belong to the company Other AB/)).toBeInTheDocument();
  });

  it('without an answer from Visma posts nothing and explains', async () => {
    renderApp('/settings/accounting/callback');
    expect(await screen.findByText(/It has no answer from Visma/)).toBeInTheDocument();
    expect(posted()).toHaveLength(0);
  });
});
