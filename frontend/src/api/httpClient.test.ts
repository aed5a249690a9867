import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildUrl,
  CanceledError,
  createXhrTransport,
  HttpHeaders,
  isCancel,
  parseJsonBody,
  parseResponseHeaders,
  serializeBody,
  serializeParams,
  TransportError,
  xhrTransport,
  type TransportRequest,
  type UploadProgress,
} from './httpClient';

describe('query parameters, written as axios 1.x wrote them', () => {
  // Each expectation is what axios 1.21.1's getUri() gave for the same params.
  it('numbers, text, commas, booleans', () => {
    expect(buildUrl('/api/x/', { page: 2, page_size: 20, search: 'a b', status: 'queued,running', dry_run: false, is_active: true })).toBe(
      '/api/x/?page=2&page_size=20&search=a+b&status=queued,running&dry_run=false&is_active=true',
    );
  });

  it('a list as key[] per item; null, undefined and an empty list left out', () => {
    expect(buildUrl('/api/x/', { status: ['open', 'closed'], empty: [], n: null, u: undefined, tenant_id: '3' })).toBe(
      '/api/x/?status%5B%5D=open&status%5B%5D=closed&tenant_id=3',
    );
  });

  it('nulls inside a list, reserved characters, dates', () => {
    expect(buildUrl('/api/x/', { list: ['a', null, 'b'], q: 'x:y$z&w=v/?#é+', when: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) })).toBe(
      '/api/x/?list%5B%5D=a&list%5B%5D=b&q=x:y$z%26w%3Dv%2F%3F%23%C3%A9%2B&when=2026-01-02T03:04:05.000Z',
    );
    expect(buildUrl('/api/x/', { quote: "it's (fine)!~*" })).toBe("/api/x/?quote=it's+(fine)!~*");
  });

  it('nested objects and lists of objects in brackets, a key[] key, trimmed keys', () => {
    expect(buildUrl('/api/x/', { cell: { region: 'EU', n: 1 }, rows: [{ a: 1 }, { a: 2 }], 'ids[]': [1, 2], ' sp ': 'x' })).toBe(
      '/api/x/?cell%5Bregion%5D=EU&cell%5Bn%5D=1&rows%5B0%5D%5Ba%5D=1&rows%5B1%5D%5Ba%5D=2&ids%5B%5D=1&ids%5B%5D=2&sp=x',
    );
  });

  it('appends to a query already in the URL, drops a fragment only when it appends', () => {
    expect(buildUrl('/api/x/?a=1#frag', { b: 2 })).toBe('/api/x/?a=1&b=2');
    expect(buildUrl('/api/x/#frag', {})).toBe('/api/x/#frag');
    expect(buildUrl('/api/x/', undefined)).toBe('/api/x/');
  });

  it('URLSearchParams as they are, repeated keys kept', () => {
    expect(serializeParams(new URLSearchParams([['s', 'a'], ['s', 'b c']]))).toBe('s=a&s=b+c');
  });
});

describe('bodies and headers', () => {
  it('a plain object or list is JSON with the JSON content type', () => {
    const headers = new HttpHeaders();
    expect(serializeBody({ a: 1, b: [null] }, headers)).toBe('{"a":1,"b":[null]}');
    expect(headers.get('content-type')).toBe('application/json');
    expect(serializeBody([1], new HttpHeaders())).toBe('[1]');
  });

  it('FormData goes as it is, without a content type (the browser writes the boundary)', () => {
    const headers = new HttpHeaders({ 'Content-Type': 'application/json' });
    const form = new FormData();
    expect(serializeBody(form, headers)).toBe(form);
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('Blob, text and no body', () => {
    const headers = new HttpHeaders({ 'Content-Type': 'text/csv' });
    const blob = new Blob(['x']);
    expect(serializeBody(blob, headers)).toBe(blob);
    expect(serializeBody('a,b', headers)).toBe('a,b');
    expect(headers.get('Content-Type')).toBe('text/csv');
    expect(serializeBody(undefined, headers)).toBeUndefined();
    expect(serializeBody(null, headers)).toBeUndefined();
  });

  it('header names are case-insensitive; null removes', () => {
    const headers = new HttpHeaders({ Accept: 'application/json' });
    expect(headers.get('accept')).toBe('application/json');
    headers.set('ACCEPT', 'text/plain');
    expect(headers.toJSON()).toEqual({ ACCEPT: 'text/plain' });
    headers.set('accept', null);
    expect(headers.get('Accept')).toBeUndefined();
  });

  it('response headers keyed by lower-case name; JSON parsed when it is JSON', () => {
    expect(parseResponseHeaders('Content-Type: application/json\r\nContent-Disposition: attachment; filename="a.csv"\r\nX-A: 1\r\nx-a: 2\r\n')).toEqual({
      'content-type': 'application/json',
      'content-disposition': 'attachment; filename="a.csv"',
      'x-a': '1, 2',
    });
    expect(parseJsonBody('{"code":200}')).toEqual({ code: 200 });
    expect(parseJsonBody('<html>')).toBe('<html>');
    expect(parseJsonBody('')).toBe('');
  });

  it('isCancel knows a cancellation and nothing else', () => {
    expect(isCancel(new CanceledError())).toBe(true);
    expect(new CanceledError()).toMatchObject({ name: 'CanceledError', code: 'ERR_CANCELED', message: 'canceled' });
    expect(isCancel(new TransportError('Network Error', 'ERR_NETWORK'))).toBe(false);
    expect(isCancel(new Error('x'))).toBe(false);
    expect(isCancel(null)).toBe(false);
  });
});

/* ---------- the XMLHttpRequest transport against a real server (jsdom's XMLHttpRequest) ---------- */

interface NodeRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): void;
  on(event: 'end', listener: () => void): void;
}
interface NodeResponse {
  writeHead(status: number, headers?: Record<string, string>): void;
  end(body?: string): void;
}
interface NodeServer {
  listen(port: number, host: string, callback: () => void): void;
  address(): { port: number };
  close(): void;
  closeAllConnections?: () => void;
}
interface NodeHttp {
  createServer(handler: (request: NodeRequest, response: NodeResponse) => void): NodeServer;
}

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: NodeServer;
let origin = '';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
  'Access-Control-Allow-Headers': 'Authorization, X-CSRFToken, Accept-Language, Content-Type, X-Test',
  'Access-Control-Expose-Headers': 'Content-Disposition',
};

beforeAll(async () => {
  // Node's http module, typed here by hand: the app's tsconfig has no Node types.
  const moduleName = 'node:http';
  const { createServer } = (await import(/* @vite-ignore */ moduleName)) as NodeHttp;
  server = createServer((request, response) => {
    const chunks: Uint8Array[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method === 'OPTIONS') {
        response.writeHead(204, CORS);
        response.end();
        return;
      }
      if (path === '/slow/') {
        setTimeout(() => {
          response.writeHead(200, { ...CORS, 'Content-Type': 'application/json' });
          response.end('{"late":true}');
        }, 1500);
        return;
      }
      if (path === '/file/') {
        response.writeHead(200, { ...CORS, 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="a.csv"' });
        response.end('a,b\n1,2\n');
        return;
      }
      if (path === '/html/') {
        response.writeHead(502, { ...CORS, 'Content-Type': 'text/html' });
        response.end('<html>bad gateway</html>');
        return;
      }
      if (path === '/empty/') {
        response.writeHead(204, CORS);
        response.end();
        return;
      }
      const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.length), 0);
      const body = new TextDecoder().decode(bytes);
      const echo: Echo = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      const status = path === '/fail/' ? 400 : 200;
      response.writeHead(status, { ...CORS, 'Content-Type': 'application/json' });
      response.end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

afterAll(() => {
  server.closeAllConnections?.();
  server.close();
});

/** jsdom's Blob has no text(); FileReader reads it. */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(blob);
  });
}

function request(overrides: Partial<TransportRequest> & { url: string }): TransportRequest {
  return {
    method: 'GET',
    params: undefined,
    headers: new HttpHeaders({ Accept: 'application/json', 'Content-Type': 'application/json' }),
    data: undefined,
    responseType: 'json',
    timeout: 5000,
    ...overrides,
    url: `${origin}${overrides.url}`,
  };
}

describe('XMLHttpRequest transport', () => {
  it('sends the method, the query and the headers; a GET has no content type', async () => {
    const headers = new HttpHeaders({ Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer t', 'X-CSRFToken': 'c' });
    const response = await xhrTransport(request({ url: '/echo/?a=1', params: { page: 2, status: ['x', 'y'], skip: null, q: 'a b' }, headers }));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const echo = response.data as Echo;
    expect(echo.method).toBe('GET');
    expect(echo.url).toBe('/echo/?a=1&page=2&status%5B%5D=x&status%5B%5D=y&q=a+b');
    expect(echo.headers.authorization).toBe('Bearer t');
    expect(echo.headers['x-csrftoken']).toBe('c');
    expect(echo.headers.accept).toBe('application/json');
    expect(echo.headers['content-type']).toBeUndefined();
  });

  it('sends a JSON body with its content type', async () => {
    const headers = new HttpHeaders({ Accept: 'application/json' });
    const data = serializeBody({ name: 'Ä', n: [1, 2] }, headers);
    const response = await xhrTransport(request({ url: '/echo/', method: 'PATCH', headers, data }));
    const echo = response.data as Echo;
    expect(echo.method).toBe('PATCH');
    expect(echo.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(echo.body)).toEqual({ name: 'Ä', n: [1, 2] });
  });

  it('sends FormData as multipart with the boundary the browser chose', async () => {
    const headers = new HttpHeaders({ 'Content-Type': 'application/json' });
    const form = new FormData();
    form.append('file', new Blob(['hello file'], { type: 'text/plain' }), 'a.txt');
    form.append('kind', 'products');
    const response = await xhrTransport(request({ url: '/echo/', method: 'POST', headers, data: serializeBody(form, headers) }));
    const echo = response.data as Echo;
    expect(echo.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain('filename="a.txt"');
    expect(echo.body).toContain('hello file');
    expect(echo.body).toContain('name="kind"');
  });

  it('answers a non-2xx status (the client decides), text that is not JSON stays text', async () => {
    const failed = await xhrTransport(request({ url: '/fail/' }));
    expect(failed.status).toBe(400);
    expect((failed.data as Echo).method).toBe('GET');
    const html = await xhrTransport(request({ url: '/html/' }));
    expect(html.status).toBe(502);
    expect(html.data).toBe('<html>bad gateway</html>');
    const empty = await xhrTransport(request({ url: '/empty/', method: 'DELETE' }));
    expect(empty.status).toBe(204);
    expect(empty.data).toBe('');
  });

  it('a blob response is a Blob, with the exposed Content-Disposition', async () => {
    const response = await xhrTransport(request({ url: '/file/', responseType: 'blob' }));
    expect(response.data).toBeInstanceOf(Blob);
    expect(await readText(response.data as Blob)).toBe('a,b\n1,2\n');
    expect(response.headers['content-disposition']).toBe('attachment; filename="a.csv"');
  });

  it('a request that takes longer than its timeout rejects with ECONNABORTED', async () => {
    const error = await xhrTransport(request({ url: '/slow/', timeout: 100 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'ECONNABORTED', message: 'timeout of 100ms exceeded' });
  });

  it('an aborted signal cancels the request in flight, and one aborted before never sends', async () => {
    const controller = new AbortController();
    const pending = xhrTransport(request({ url: '/slow/', signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((e: unknown) => e);
    expect(isCancel(error)).toBe(true);

    const createXhr = vi.fn(() => new XMLHttpRequest());
    const before = new AbortController();
    before.abort();
    const early = await createXhrTransport(createXhr)(request({ url: '/echo/', signal: before.signal })).catch((e: unknown) => e);
    expect(isCancel(early)).toBe(true);
    expect(createXhr).not.toHaveBeenCalled();
  });

  it('a server that cannot be reached rejects with a network error', async () => {
    const error = await xhrTransport({ ...request({ url: '/echo/' }), url: 'http://127.0.0.1:9/nothing/' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'ERR_NETWORK', message: 'Network Error' });
  });

  it('reports upload progress to the callback while jsdom uploads a file', async () => {
    const progress: UploadProgress[] = [];
    const headers = new HttpHeaders();
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(200_000)]), 'big.csv');
    const response = await xhrTransport(
      request({ url: '/echo/', method: 'POST', headers, data: serializeBody(form, headers), onUploadProgress: (event) => progress.push(event) }),
    );
    expect(response.status).toBe(200);
    // jsdom reports the end of the upload only (and no length for a multipart body).
    expect(progress.length).toBeGreaterThan(0);
  });

  it('passes the browser\'s upload progress events on: loaded and total, no total when not computable', async () => {
    const fake = new FakeXhr();
    const progress: UploadProgress[] = [];
    const form = new FormData();
    const pending = createXhrTransport(() => fake as unknown as XMLHttpRequest)(
      request({ url: '/upload/', method: 'POST', headers: new HttpHeaders(), data: form, timeout: 300000, onUploadProgress: (event) => progress.push(event) }),
    );
    expect(fake.opened).toEqual(['POST', `${origin}/upload/`]);
    expect(fake.sent).toBe(form);
    expect(fake.timeout).toBe(300000);
    fake.upload.dispatchEvent(progressEvent(0, 1000, true));
    fake.upload.dispatchEvent(progressEvent(400, 1000, true));
    fake.upload.dispatchEvent(progressEvent(1000, 1000, true));
    fake.upload.dispatchEvent(progressEvent(7, 0, false));
    fake.answer(201, '{"code":200,"data":{"id":1}}', 'Content-Type: application/json\r\n');
    await expect(pending).resolves.toMatchObject({ status: 201, data: { code: 200, data: { id: 1 } }, headers: { 'content-type': 'application/json' } });
    expect(progress).toEqual([{ loaded: 0, total: 1000 }, { loaded: 400, total: 1000 }, { loaded: 1000, total: 1000 }, { loaded: 7, total: undefined }]);
  });

  it('adds no upload listener without a progress callback', () => {
    const fake = new FakeXhr();
    const listen = vi.spyOn(fake.upload, 'addEventListener');
    void createXhrTransport(() => fake as unknown as XMLHttpRequest)(request({ url: '/x/', method: 'POST', data: '{}' }));
    expect(listen).not.toHaveBeenCalled();
    expect(fake.requestHeaders).toEqual([['Accept', 'application/json'], ['Content-Type', 'application/json']]);
  });
});

function progressEvent(loaded: number, total: number, lengthComputable: boolean): Event {
  return Object.assign(new Event('progress'), { loaded, total, lengthComputable });
}

/** The part of XMLHttpRequest the transport uses, driven by the test. */
class FakeXhr extends EventTarget {
  readonly upload = new EventTarget();
  opened: string[] = [];
  sent: unknown = undefined;
  requestHeaders: [string, string][] = [];
  timeout = 0;
  responseType = '';
  status = 0;
  statusText = '';
  responseText = '';
  response: unknown = null;
  private rawHeaders = '';

  open(method: string, url: string): void {
    this.opened = [method, url];
  }

  setRequestHeader(name: string, value: string): void {
    this.requestHeaders.push([name, value]);
  }

  send(body: unknown): void {
    this.sent = body;
  }

  abort(): void {
    this.dispatchEvent(new Event('abort'));
  }

  getAllResponseHeaders(): string {
    return this.rawHeaders;
  }

  answer(status: number, text: string, headers: string): void {
    this.status = status;
    this.statusText = String(status);
    this.responseText = text;
    this.response = text;
    this.rawHeaders = headers;
    this.dispatchEvent(new Event('load'));
  }
}
