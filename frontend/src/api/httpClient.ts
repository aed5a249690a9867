/**
 * The small HTTP machinery under src/api/http.ts: request and response types, headers, query and body
 * serialisation, the errors a transport rejects with, and the browser transport (XMLHttpRequest: it
 * reports upload progress, has a timeout and can be aborted). The app's rules (auth, tenant, envelope,
 * token refresh) live in http.ts; tests swap the transport (src/test/mockAdapter.ts).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryParams = Record<string, unknown> | URLSearchParams;

export interface UploadProgress {
  loaded: number;
  /** Unknown when the browser cannot compute the length. */
  total?: number;
}

/** What a caller may pass with a request. */
export interface RequestConfig {
  url?: string;
  method?: HttpMethod | Lowercase<HttpMethod>;
  params?: QueryParams;
  /** The body: a plain object or array goes as JSON, FormData/Blob/string as they are. */
  data?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** 'blob' for files; otherwise a JSON body is parsed (a body that is not JSON stays text). */
  responseType?: 'json' | 'blob';
  timeout?: number;
  onUploadProgress?: (event: UploadProgress) => void;
  /** Do not try a token refresh on 401 (login, refresh and logout calls). */
  skipAuthRefresh?: boolean;
  /** Set on the retry after a refresh, so a request is refreshed at most once. */
  authRetried?: boolean;
}

/** Header names are case-insensitive; `get` answers undefined for a header that is not set. */
export class HttpHeaders {
  private readonly map = new Map<string, [string, string]>();

  constructor(init?: Record<string, string> | HttpHeaders) {
    if (init instanceof HttpHeaders) for (const [name, value] of init.entries()) this.set(name, value);
    else if (init) for (const [name, value] of Object.entries(init)) this.set(name, value);
  }

  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase())?.[1];
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  /** `null` removes the header. */
  set(name: string, value: string | null | undefined): this {
    if (value === null || value === undefined) this.map.delete(name.toLowerCase());
    else this.map.set(name.toLowerCase(), [name, String(value)]);
    return this;
  }

  entries(): [string, string][] {
    return [...this.map.values()].map(([name, value]) => [name, value]);
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(this.entries());
  }
}

/** The request as a transport receives it: the body serialised, the headers final. */
export interface TransportRequest {
  method: HttpMethod;
  /** The path, with any query written into it by the caller; `params` are appended by the transport. */
  url: string;
  params: QueryParams | undefined;
  headers: HttpHeaders;
  data: string | FormData | Blob | ArrayBuffer | URLSearchParams | undefined;
  responseType: 'json' | 'blob';
  timeout: number;
  signal?: AbortSignal;
  onUploadProgress?: (event: UploadProgress) => void;
}

/** Any answer, whatever its status; response header names are lower case. */
export interface TransportResponse<T = unknown> {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  data: T;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export interface HttpResponse<T = unknown> extends TransportResponse<T> {
  config: RequestConfig;
}

/* ---------- errors ---------- */

/** A cancelled request (its signal aborted). Same shape as axios's CanceledError. */
export class CanceledError extends Error {
  readonly code = 'ERR_CANCELED';
  readonly __CANCEL__ = true;

  constructor(message = 'canceled') {
    super(message);
    this.name = 'CanceledError';
  }
}

export function isCancel(value: unknown): value is CanceledError {
  return value instanceof CanceledError || (typeof value === 'object' && value !== null && (value as { __CANCEL__?: unknown }).__CANCEL__ === true);
}

export type TransportErrorCode = 'ERR_NETWORK' | 'ECONNABORTED' | 'ETIMEDOUT';

/** No answer: the network failed, the request timed out or the browser aborted it. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: TransportErrorCode,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** An answer with a status outside 2xx. */
export class HttpStatusError extends Error {
  constructor(readonly response: TransportResponse) {
    super(`Request failed with status code ${response.status}`);
    this.name = 'HttpStatusError';
  }
}

/* ---------- serialisation ---------- */

/** axios's encoding of query keys and values: `:`, `$`, `,` kept, spaces as `+`. */
function encodeQuery(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+');
}

function queryValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The query string, written as axios 1.x wrote it, so the server sees the same parameters: null and
 * undefined are left out, `key: [a, b]` is `key[]=a&key[]=b` (brackets percent-encoded, nulls in the
 * list left out), `{a: {b: 1}}` is `a[b]=1`, dates are ISO strings, booleans `true`/`false`.
 * URLSearchParams are written as they are.
 */
export function serializeParams(params: QueryParams | undefined): string {
  if (!params) return '';
  if (params instanceof URLSearchParams) return params.toString();
  const pairs: string[] = [];
  const add = (key: string, value: unknown) => pairs.push(`${encodeQuery(key)}=${encodeQuery(queryValue(value))}`);
  const walk = (prefix: string | null, object: Record<string, unknown> | unknown[]) => {
    for (const [rawKey, value] of Object.entries(object)) {
      if (value === undefined || value === null) continue;
      const key = rawKey.trim().replace(/\[\]$/, '');
      const path = prefix === null ? rawKey.trim() : `${prefix}[${key}]`;
      if (prefix === null && Array.isArray(value) && !value.some((item) => Array.isArray(item) || isPlainObject(item))) {
        for (const item of value) if (item !== undefined && item !== null) add(`${key}[]`, item);
      } else if (Array.isArray(value) || isPlainObject(value)) {
        walk(path, value);
      } else {
        add(path, value);
      }
    }
  };
  walk(null, params);
  return pairs.join('&');
}

/** The URL with the serialised params appended (after any query already in it; a #fragment is dropped). */
export function buildUrl(url: string, params: QueryParams | undefined): string {
  const query = serializeParams(params);
  if (!query) return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

/**
 * The body as sent, and the content type it needs: plain objects and arrays become JSON; FormData,
 * Blob, ArrayBuffer, URLSearchParams and strings go as they are (FormData gets its boundary from the
 * browser, so its content type is removed).
 */
export function serializeBody(data: unknown, headers: HttpHeaders): TransportRequest['data'] {
  if (data === undefined || data === null) return undefined;
  if (typeof FormData !== 'undefined' && data instanceof FormData) {
    headers.set('Content-Type', null);
    return data;
  }
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data;
  if (data instanceof ArrayBuffer) return data;
  if (data instanceof URLSearchParams) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded;charset=utf-8');
    return data;
  }
  if (typeof data === 'string') return data;
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return JSON.stringify(data);
}

/** Response headers as `getAllResponseHeaders()` writes them, keyed by lower-case name. */
export function parseResponseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** A text body parsed as JSON when it is JSON (as axios did); empty stays ''. */
export function parseJsonBody(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/* ---------- the browser transport ---------- */

/** The XMLHttpRequest transport; `createXhr` is replaceable for tests. */
export function createXhrTransport(createXhr: () => XMLHttpRequest = () => new XMLHttpRequest()): Transport {
  return (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(new CanceledError());
        return;
      }
      const xhr = createXhr();
      let settled = false;
      const onAbortSignal = () => {
        if (settled) return;
        settled = true;
        xhr.abort();
        reject(new CanceledError());
      };
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbortSignal);
        action();
      };

      xhr.open(request.method, buildUrl(request.url, request.params), true);
      xhr.timeout = request.timeout;
      xhr.responseType = request.responseType === 'blob' ? 'blob' : 'text';
      for (const [name, value] of request.headers.entries()) {
        // No body, no content type (as axios did).
        if (request.data === undefined && name.toLowerCase() === 'content-type') continue;
        xhr.setRequestHeader(name, value);
      }
      if (request.onUploadProgress && xhr.upload) {
        const report = request.onUploadProgress;
        xhr.upload.addEventListener('progress', (event) => {
          report({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
        });
      }

      xhr.addEventListener('load', () => {
        finish(() => {
          const data = request.responseType === 'blob' ? (xhr.response as Blob) : parseJsonBody(xhr.responseText);
          resolve({ status: xhr.status, statusText: xhr.statusText, headers: parseResponseHeaders(xhr.getAllResponseHeaders()), data });
        });
      });
      xhr.addEventListener('error', () => finish(() => reject(new TransportError('Network Error', 'ERR_NETWORK'))));
      xhr.addEventListener('timeout', () =>
        finish(() => reject(new TransportError(`timeout of ${request.timeout}ms exceeded`, 'ECONNABORTED'))),
      );
      // Aborted by the browser (not by the signal, which settles first).
      xhr.addEventListener('abort', () => finish(() => reject(new TransportError('Request aborted', 'ECONNABORTED'))));

      signal?.addEventListener('abort', onAbortSignal, { once: true });
      xhr.send(request.data ?? null);
    });
}

export const xhrTransport: Transport = createXhrTransport();
