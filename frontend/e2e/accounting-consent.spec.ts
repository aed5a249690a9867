import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/**
 * The Visma eAccounting consent round trip as a company's administrator goes through it: Settings →
 * Accounting → "Connect to Visma eAccounting" → Visma's authorization page → back to
 * /settings/accounting/callback with a code and the state → connected. Visma is a small HTTP server in
 * this test, started on a free loopback port, answering as Visma's identity server and API do (as the
 * backend tests' fake, apps/accounting/tests/fake_visma.py): /connect/authorize sends the browser back to
 * the redirect URI with a single-use code and the state it was given; /connect/token exchanges the code
 * (client secret as HTTP Basic, the same redirect URI, the PKCE verifier against the challenge);
 * /v2/companysettings answers the connection test. The connection points at it through its own
 * addresses (API base URL and token URL, the authorization URL derived from the token URL), as a sandbox
 * company's would. It is tenant 2's, so the demo connection of tenant 3 the other specs read stays as it is.
 */

const TENANT = '2';
const CLIENT_ID = 'cartontrace-consent-e2e';
const CLIENT_SECRET = 'consent-secret-7f3a';
const COMPANY = '556677-8899';

interface Authorization {
  clientId: string;
  redirectUri: string;
  challenge: string;
  state: string;
  used: boolean;
}

/** What the fake Visma saw, for the test to check. */
interface Seen {
  authorizations: Authorization[];
  tokenRequests: { grant: string; redirectUri: string; verified: boolean }[];
  apiCalls: string[];
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => resolve(text));
  });
}

function fakeVisma(seen: Seen): Server {
  const codes = new Map<string, Authorization>();
  const tokens = new Set<string>();
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.method === 'GET' && url.pathname === '/connect/authorize') {
      const q = url.searchParams;
      const authorization: Authorization = {
        clientId: q.get('client_id') ?? '',
        redirectUri: q.get('redirect_uri') ?? '',
        challenge: q.get('code_challenge_method') === 'S256' ? (q.get('code_challenge') ?? '') : '',
        state: q.get('state') ?? '',
        used: false,
      };
      seen.authorizations.push(authorization);
      if (q.get('response_type') !== 'code' || !authorization.redirectUri || !authorization.state) return json(400, { error: 'invalid_request' });
      // The user signed in, picked the company and allowed access: back to the product.
      const code = `code-${randomUUID()}`;
      codes.set(code, authorization);
      const back = new URL(authorization.redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', authorization.state);
      response.writeHead(302, { Location: back.toString() });
      response.end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/connect/token') {
      void body(request).then((text) => {
        const form = new URLSearchParams(text);
        const [user, secret] = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
        const authorization = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const verified = !!authorization && createHash('sha256').update(verifier).digest('base64url') === authorization.challenge;
        seen.tokenRequests.push({ grant: form.get('grant_type') ?? '', redirectUri: form.get('redirect_uri') ?? '', verified });
        if (secret !== CLIENT_SECRET) return json(400, { error: 'invalid_client' });
        if (form.get('grant_type') !== 'authorization_code' || !authorization || authorization.used) return json(400, { error: 'invalid_grant' });
        authorization.used = true;
        if (authorization.clientId !== user || authorization.redirectUri !== form.get('redirect_uri') || !verified) {
          return json(400, { error: 'invalid_grant' });
        }
        const token = `at-${randomUUID()}`;
        tokens.add(token);
        json(200, { access_token: token, expires_in: 3600, token_type: 'Bearer', refresh_token: `rt-${randomUUID()}` });
      });
      return;
    }
    if (request.method === 'GET' && url.pathname === '/v2/companysettings') {
      seen.apiCalls.push(url.pathname);
      if (!tokens.has((request.headers.authorization ?? '').replace(/^Bearer /, ''))) return json(401, { message: 'Unauthorized' });
      return json(200, { Name: 'Nordic Packaging AB', CorporateIdentityNumber: COMPANY, Id: 'c-nordic' });
    }
    json(404, { message: 'No HTTP resource was found' });
  });
}

async function token(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { access: string } }).data.access;
}

let server: Server;
let visma = '';
const seen: Seen = { authorizations: [], tokenRequests: [], apiCalls: [] };

test.beforeAll(async () => {
  server = fakeVisma(seen);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  visma = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('an administrator connects Visma eAccounting through its consent page and comes back connected', async ({ page, request }) => {
  // The company's eAccounting connection, saved with its client id and secret (not yet authorised),
  // not enabled: nothing this company posts is pushed to the fake.
  const saved = await request.put(`/api/accounting/connection/?tenant_id=${TENANT}`, {
    headers: { Authorization: `Bearer ${await token(request)}` },
    data: {
      provider: 'visma_eaccounting',
      enabled: false,
      base_url: `${visma}/v2/`,
      token_url: `${visma}/connect/token`,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      company_id: COMPANY,
      supplier_level: 'supplier',
      clear_refresh_token: true,
    },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();

  await page.addInitScript((tenant) => window.localStorage.setItem('tenant_id', tenant), TENANT);
  await signIn(page, 'admin');
  await page.goto('/settings/accounting');
  const card = page.getByTestId('eaccounting-connect');
  await expect(card).toBeVisible({ timeout: 30_000 });
  const redirectUri = (await page.getByTestId('redirect-uri').innerText()).trim();
  expect(redirectUri).toMatch(/\/settings\/accounting\/callback$/);
  await expect(card.getByText('Authorised: a refresh token is stored.')).toHaveCount(0);

  // To Visma's authorization page and back: the code and the state arrive at the callback page.
  await page.getByTestId('connect-eaccounting').click();
  await expect(page.getByTestId('callback-done')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('callback-done')).toContainText('Connected to Visma eAccounting');
  await expect(page.getByTestId('callback-done')).toContainText('Nordic Packaging AB');
  // The spent code is not left in the address bar.
  await expect(page).toHaveURL(/\/settings\/accounting\/callback$/);

  // What Visma saw: one authorization for this client and redirect URI with a PKCE challenge, one code
  // exchange with the same redirect URI and a matching verifier, then the connection test with the token.
  expect(seen.authorizations).toHaveLength(1);
  expect(seen.authorizations[0]).toMatchObject({ clientId: CLIENT_ID, redirectUri, used: true });
  expect(seen.authorizations[0]?.challenge).not.toBe('');
  expect(seen.tokenRequests).toEqual([{ grant: 'authorization_code', redirectUri, verified: true }]);
  expect(seen.apiCalls).toEqual(['/v2/companysettings']);

  // Back on the connection page: authorised, the refresh token stored.
  await page.getByTestId('callback-back').click();
  await expect(page).toHaveURL(/\/settings\/accounting$/);
  await expect(page.getByTestId('eaccounting-connect')).toContainText('Authorised: a refresh token is stored.');
  await expect(page.getByTestId('connect-eaccounting')).toHaveText('Connect again');

  // The same state cannot be spent twice: the callback with the code Visma sent a second time fails.
  const state = seen.authorizations[0]?.state ?? '';
  await page.goto(`/settings/accounting/callback?code=replayed&state=${encodeURIComponent(state)}`);
  await expect(page.getByTestId('callback-failed')).toBeVisible();
  expect(seen.tokenRequests).toHaveLength(1);
});
