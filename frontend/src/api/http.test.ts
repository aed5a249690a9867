import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, MockServer, ok } from '@/test/mockAdapter';
import { signIn } from '@/test/session';
import { getSession, reloadSession } from '@/shared/session/sessionStore';
import { STORAGE_KEYS } from '@/shared/session/storageKeys';
import { normalizeEnvelope } from './envelope';
import { ApiError } from './errors';
import { browserLocation } from './hardNavigate';
import { del, download, get, http, isCancel, patch, post, put, REFRESH_URL, request } from './http';
import { serializeParams, TransportError, type TransportRequest } from './httpClient';

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  window.history.replaceState(null, '', '/sales/orders');
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('request headers', () => {
  it('sends the bearer token, the CSRF cookie, the language and JSON', async () => {
    signIn({ access: 'tok-123' });
    document.cookie = 'csrftoken=csrf-abc';
    window.localStorage.setItem(STORAGE_KEYS.language, 'zh');
    server.on('GET', '/api/products/', ok([]));
    await get('/api/products/');
    const { headers } = server.requests[0];
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get('X-CSRFToken')).toBe('csrf-abc');
    expect(headers.get('Accept-Language')).toBe('zh');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends a new Idempotency-Key with every POST, none with reads, and keeps a caller\'s own', async () => {
    signIn();
    server.on('POST', '/api/salesorders/orders/', ok({ id: 1 }));
    server.on('GET', '/api/products/', ok([]));
    await post('/api/salesorders/orders/', { a: 1 });
    await post('/api/salesorders/orders/', { a: 1 });
    await post('/api/salesorders/orders/', { a: 1 }, { headers: { 'Idempotency-Key': 'mine' } });
    await get('/api/products/');
    const [first, second, third, read] = server.requests.map((r) => r.headers.get('Idempotency-Key'));
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    expect(third).toBe('mine');
    expect(read).toBeUndefined();
  });

  it('has a 300000 ms timeout and no base URL', () => {
    expect(http.defaults.timeout).toBe(300000);
    expect(http.defaults.baseURL).toBe('');
  });

  it('lets the browser set the multipart content type for FormData', async () => {
    signIn();
    server.on('POST', '/api/common/comments/1/add_attachment/', ok({ id: 1 }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await post('/api/common/comments/1/add_attachment/', form);
    expect(server.requests[0].headers.get('Content-Type')).toBeFalsy();
  });
});

describe('tenant parameter', () => {
  it('adds tenant_id from storage to every request', async () => {
    signIn({ tenant: '3' });
    server.on('GET', '/api/products/', ok([]));
    await get('/api/products/', { params: { page: 2 } });
    expect(server.requests[0].params).toEqual({ page: 2, tenant_id: '3' });
  });

  it('warns and sends no tenant_id when none is stored', async () => {
    signIn({ tenant: null });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.on('GET', '/api/products/', ok([]));
    await get('/api/products/');
    expect(server.requests[0].params).toEqual({});
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('No tenant_id'));
  });

  it.each(['/api/eudrtrack/ABC123/', '/api/printer/jobs/'])('removes tenant_id for %s', async (path) => {
    signIn({ tenant: '3' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.on('GET', path, ok({}));
    await get(`${path}?tenant_id=3&x=1`, { params: { tenant_id: '3', y: 2 } });
    expect(server.requests[0].params).toEqual({ y: 2 });
    expect(server.requests[0].url).toBe(`${path}?x=1`);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('envelope', () => {
  beforeEach(() => signIn());

  it('code 200 is success and resolves to data', async () => {
    server.on('GET', '/api/x/', ok({ a: 1 }));
    await expect(get('/api/x/')).resolves.toEqual({ a: 1 });
  });

  it('code 0 is success', async () => {
    server.on('GET', '/api/x/', { status: 200, data: { code: 0, message: 'ok', data: [1] } });
    await expect(get('/api/x/')).resolves.toEqual([1]);
  });

  it('a create answers HTTP 201 with code 200: success', async () => {
    server.on('POST', '/api/x/', { status: 201, data: { code: 200, message: 'success', data: { id: 7 } } });
    await expect(post('/api/x/', {})).resolves.toEqual({ id: 7 });
  });

  it('code 201 in the body is a business error (docs/specification.md: only 200 or 0 is success)', async () => {
    server.on('POST', '/api/x/', { status: 201, data: { code: 201, message: 'Created?', data: null } });
    await expect(post('/api/x/', {})).rejects.toMatchObject({ message: 'Created?', code: 201 });
  });

  it('another code is a business error with message, code and data', async () => {
    server.on('PUT', '/api/x/', { status: 200, data: { code: 4001, message: 'Insufficient weight', data: { remaining: 3 } } });
    const error = await put('/api/x/', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Insufficient weight', code: 4001, data: { remaining: 3 } });
  });

  it("a business error without message says 'Business error'", async () => {
    server.on('PATCH', '/api/x/', { status: 200, data: { code: 9 } });
    await expect(patch('/api/x/', {})).rejects.toMatchObject({ message: 'Business error', code: 9 });
  });

  it('a plain 2xx body is wrapped as code 200, message success', async () => {
    server.on('GET', '/api/plain/', { status: 200, data: [{ id: 1 }] });
    const response = await http.get('/api/plain/');
    expect(response.data).toEqual({ code: 200, message: 'success', data: [{ id: 1 }] });
  });

  it("anything else is 'Unknown response format'", () => {
    expect(() => normalizeEnvelope(302, '<html>')).toThrow('Unknown response format');
    expect(() => normalizeEnvelope(302, '<html>')).toThrow(ApiError);
  });

  it('a 204-style empty success resolves to null', async () => {
    server.on('DELETE', '/api/x/1/', { status: 200, data: { code: 200, message: 'success', data: null } });
    await expect(del('/api/x/1/')).resolves.toBeNull();
  });

  it('carries the error key and field errors of a validation error', async () => {
    server.on('POST', '/api/x/', fail(400, 'Invalid input.', 'validation_error', { name: ['Required.'] }));
    const error = await post('/api/x/', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.error).toBe('validation_error');
    expect(apiError.status).toBe(400);
    expect(apiError.fieldErrors).toEqual({ name: ['Required.'] });
  });

  it('takes the error text from message, then detail, then the error itself', async () => {
    server.on('GET', '/api/a/', { status: 403, data: { message: 'From message', detail: 'From detail' } });
    server.on('GET', '/api/b/', { status: 403, data: { detail: 'From detail' } });
    server.on('GET', '/api/c/', { status: 500, data: '<html>' });
    await expect(get('/api/a/')).rejects.toMatchObject({ message: 'From message' });
    await expect(get('/api/b/')).rejects.toMatchObject({ message: 'From detail' });
    await expect(get('/api/c/')).rejects.toMatchObject({ message: 'Request failed with status code 500', status: 500 });
  });

  it('passes a cancelled request on silently', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const consoleWarn = vi.spyOn(console, 'warn');
    server.on('GET', '/api/x/', ok(1));
    const controller = new AbortController();
    controller.abort();
    const error = await get('/api/x/', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isCancel(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(consoleError).not.toHaveBeenCalled();
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  it('a network error rejects with the network key and logs the tenant hint when no tenant is stored', async () => {
    signIn({ tenant: null });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.on('GET', '/api/x/', () => 'network-error');
    await expect(get('/api/x/')).rejects.toMatchObject({ error: 'network_error', isNetworkError: true });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Network error: no tenant_id'));
  });

  it('downloads files without envelope handling', async () => {
    server.on('GET', '/api/products/export/', {
      status: 200,
      data: new Blob(['a,b']),
      headers: { 'content-disposition': 'attachment; filename="products.csv"' },
    });
    const file = await download('/api/products/export/', { params: { format: 'csv' } });
    expect(file.fileName).toBe('products.csv');
    expect(file.blob).toBeInstanceOf(Blob);
  });
});

describe('what the transport receives', () => {
  beforeEach(() => signIn({ tenant: '3' }));

  function capture(): TransportRequest[] {
    const seen: TransportRequest[] = [];
    http.transport = (sent) => {
      seen.push(sent);
      return Promise.resolve({ status: 200, statusText: 'OK', headers: {}, data: { code: 200, message: 'success', data: null } });
    };
    return seen;
  }

  it('the method, the path, the params with tenant_id, the JSON body, the default timeout', async () => {
    const seen = capture();
    await patch('/api/x/1/', { name: 'a' }, { params: { expand: 'lines' } });
    expect(seen[0]).toMatchObject({ method: 'PATCH', url: '/api/x/1/', params: { expand: 'lines', tenant_id: '3' }, data: '{"name":"a"}', responseType: 'json', timeout: 300000 });
    expect(seen[0].headers.get('Content-Type')).toBe('application/json');
  });

  it('URLSearchParams keep repeated keys and get tenant_id', async () => {
    const seen = capture();
    await get('/api/x/', { params: new URLSearchParams([['status', 'a'], ['status', 'b']]) });
    expect(seen[0].params).toBeInstanceOf(URLSearchParams);
    expect(serializeParams(seen[0].params)).toBe('status=a&status=b&tenant_id=3');
  });

  it("a caller's headers, timeout, signal and upload progress reach the transport", async () => {
    const seen = capture();
    const controller = new AbortController();
    const onUploadProgress = vi.fn();
    const form = new FormData();
    await post('/api/x/', form, { headers: { 'X-Test': '1' }, timeout: 5, signal: controller.signal, onUploadProgress });
    expect(seen[0].headers.get('x-test')).toBe('1');
    expect(seen[0]).toMatchObject({ timeout: 5, signal: controller.signal, onUploadProgress, data: form });
  });

  it('request() takes a lower-case method and resolves to the whole envelope', async () => {
    server.on('POST', '/api/x/', { status: 200, data: { code: 200, message: 'Saved', data: { id: 1 } } });
    await expect(request({ url: '/api/x/', method: 'post', data: {} })).resolves.toEqual({ code: 200, message: 'Saved', data: { id: 1 } });
  });

  it('a timeout rejects with the timeout key', async () => {
    http.transport = () => Promise.reject(new TransportError('timeout of 300000ms exceeded', 'ECONNABORTED'));
    await expect(get('/api/x/')).rejects.toMatchObject({ error: 'timeout', code: 0, isNetworkError: true, message: 'timeout of 300000ms exceeded' });
  });

  it('a blob response is not unwrapped; a blob error body is read back as JSON', async () => {
    const blob = new Blob(['a,b']);
    server.on('POST', '/api/reports/export/', { status: 200, data: blob });
    const response = await http.post<Blob>('/api/reports/export/', {}, { responseType: 'blob' });
    expect(response.data).toBe(blob);

    const json = JSON.stringify({ code: 400, message: 'Too many rows', error: 'too_many_rows' });
    // jsdom's Blob has no text(); a browser's has.
    const errorBody = Object.assign(new Blob([json]), { text: () => Promise.resolve(json) });
    server.on('GET', '/api/products/export/', { status: 400, data: errorBody });
    await expect(download('/api/products/export/')).rejects.toMatchObject({ status: 400, message: 'Too many rows', error: 'too_many_rows' });
  });
});

describe('401 and token refresh', () => {
  beforeEach(() => {
    signIn({ access: 'old-access', refresh: 'refresh-1' });
    vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
  });

  function expiringEndpoint(path: string) {
    server.on('GET', path, (config) => {
      const auth = config.headers.get('Authorization');
      return auth === 'Bearer new-access' ? ok({ path }) : fail(401, 'Token expired', 'token_not_valid');
    });
  }

  it('refreshes once and retries the request with the new token', async () => {
    expiringEndpoint('/api/x/');
    server.on('POST', REFRESH_URL, (config) => {
      expect(JSON.parse(String(config.data))).toEqual({ refresh: 'refresh-1' });
      return ok({ access: 'new-access', refresh: 'refresh-2' });
    });
    await expect(get('/api/x/')).resolves.toEqual({ path: '/api/x/' });
    expect(server.count('POST', REFRESH_URL)).toBe(1);
    expect(getSession().accessToken).toBe('new-access');
    expect(getSession().refreshToken).toBe('refresh-2');
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('new-access');
  });

  it('the retry after the refresh is the same submit: the same Idempotency-Key', async () => {
    signIn({ access: 'old-access', refresh: 'refresh-1' });
    let calls = 0;
    server.on('POST', '/api/eudr/raw-materials/1/generate-cartons/', () => {
      calls += 1;
      return calls === 1 ? fail(401, 'expired', 'token_not_valid') : ok({ generated: 5 });
    });
    server.on('POST', REFRESH_URL, ok({ access: 'new-access', refresh: 'refresh-2' }));
    await expect(post('/api/eudr/raw-materials/1/generate-cartons/', { count: 5 })).resolves.toEqual({ generated: 5 });
    const submits = server.requests.filter((r) => r.url.includes('generate-cartons'));
    expect(submits).toHaveLength(2);
    const key = submits[0].headers.get('Idempotency-Key');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(submits[1].headers.get('Idempotency-Key')).toBe(key);
  });

  it('concurrent 401s share one refresh', async () => {
    expiringEndpoint('/api/a/');
    expiringEndpoint('/api/b/');
    expiringEndpoint('/api/c/');
    server.on('POST', REFRESH_URL, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return ok({ access: 'new-access' });
    });
    const results = await Promise.all([get('/api/a/'), get('/api/b/'), get('/api/c/')]);
    expect(results).toHaveLength(3);
    expect(server.count('POST', REFRESH_URL)).toBe(1);
  });

  it('refreshes at most once per request', async () => {
    server.on('GET', '/api/x/', fail(401, 'Still not allowed', 'not_authenticated'));
    server.on('POST', REFRESH_URL, ok({ access: 'new-access' }));
    await expect(get('/api/x/')).rejects.toMatchObject({ status: 401, message: 'Still not allowed' });
    expect(server.count('POST', REFRESH_URL)).toBe(1);
    expect(server.count('GET', '/api/x/')).toBe(2);
  });

  it('skips the refresh on public routes', async () => {
    window.history.replaceState(null, '', '/auth/login');
    server.on('GET', '/api/x/', fail(401, 'Invalid token', 'token_not_valid'));
    server.on('POST', REFRESH_URL, ok({ access: 'new-access' }));
    await expect(get('/api/x/')).rejects.toMatchObject({ status: 401 });
    expect(server.count('POST', REFRESH_URL)).toBe(0);
    expect(browserLocation.assign).not.toHaveBeenCalled();
  });

  it('never refreshes for the login call itself', async () => {
    server.on('POST', '/api/users/login/', fail(401, 'Invalid username or password', 'invalid_credentials'));
    await expect(post('/api/users/login/', {}, { skipAuthRefresh: true })).rejects.toMatchObject({ message: 'Invalid username or password' });
    expect(server.count('POST', REFRESH_URL)).toBe(0);
  });

  it('a failed refresh signs out and loads the login page, coming back afterwards', async () => {
    window.history.replaceState(null, '', '/purchase/orders?page=2');
    server.on('GET', '/api/x/', fail(401, 'Token expired', 'token_not_valid'));
    server.on('POST', REFRESH_URL, fail(401, 'Token is blacklisted', 'token_not_valid'));
    await expect(get('/api/x/')).rejects.toMatchObject({ message: 'Token is blacklisted' });
    expect(getSession().accessToken).toBeNull();
    expect(getSession().userInfo).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(browserLocation.assign).toHaveBeenCalledWith('/auth/login?redirect=%2Fpurchase%2Forders%3Fpage%3D2');
  });

  it("without a refresh token says 'No refresh token available' and signs out", async () => {
    signIn({ access: 'old-access', refresh: null });
    server.on('GET', '/api/x/', fail(401, 'Token expired', 'token_not_valid'));
    await expect(get('/api/x/')).rejects.toMatchObject({ message: 'No refresh token available' });
    expect(server.count('POST', REFRESH_URL)).toBe(0);
    expect(browserLocation.assign).toHaveBeenCalled();
  });

  it("a refresh without an answer says 'Network error during token refresh'", async () => {
    server.on('GET', '/api/x/', fail(401, 'Token expired', 'token_not_valid'));
    server.on('POST', REFRESH_URL, () => 'network-error');
    await expect(get('/api/x/')).rejects.toMatchObject({ message: 'Network error during token refresh' });
    expect(getSession().accessToken).toBeNull();
  });
});
