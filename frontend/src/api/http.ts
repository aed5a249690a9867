/**
 * The one HTTP client of the app (docs/specification.md sections 4, 5, 7, 8): the headers, the tenant parameter,
 * the envelope rules and the token refresh, over a replaceable transport (XMLHttpRequest in the
 * browser, src/api/httpClient.ts). Feature code calls the typed helpers at the bottom
 * (get/post/put/patch/del/download), which resolve to the envelope's `data` and reject with ApiError.
 */
import {
  clearSession,
  getSession,
  setTokens,
} from '@/shared/session/sessionStore';
import { STORAGE_KEYS } from '@/shared/session/storageKeys';
import { httpError, normalizeEnvelope } from './envelope';
import { ApiError, CLIENT_ERROR_KEYS, CLIENT_ERROR_MESSAGES } from './errors';
import { browserLocation } from './hardNavigate';
import {
  HttpHeaders,
  HttpStatusError,
  isCancel,
  serializeBody,
  TransportError,
  xhrTransport,
  type HttpMethod,
  type HttpResponse,
  type RequestConfig,
  type Transport,
  type TransportRequest,
} from './httpClient';
import { isPublicPath, loginUrl } from './publicRoutes';
import { applyTenantParam } from './tenantParam';
import type { Envelope, RefreshData } from './types';

export { CanceledError, isCancel } from './httpClient';
export type { HttpResponse, RequestConfig, UploadProgress } from './httpClient';

export const REQUEST_TIMEOUT_MS = 300000;
export const REFRESH_URL = '/api/users/refresh/';

export function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return null;
}

/** The request as sent: auth, CSRF and language headers, the tenant parameter, the serialised body. */
function prepare(config: RequestConfig): TransportRequest {
  const session = getSession();
  const headers = new HttpHeaders(http.defaults.headers);
  for (const [name, value] of Object.entries(config.headers ?? {})) headers.set(name, value);
  if (session.accessToken) headers.set('Authorization', `Bearer ${session.accessToken}`);
  const csrf = readCookie('csrftoken');
  if (csrf) headers.set('X-CSRFToken', csrf);
  const language = window.localStorage.getItem(STORAGE_KEYS.language);
  if (language) headers.set('Accept-Language', language);
  // FormData: serializeBody removes the content type, so the browser writes the multipart boundary.
  const data = serializeBody(config.data, headers);

  const url = `${http.defaults.baseURL}${config.url ?? ''}`;
  const tenant = applyTenantParam(url, config.params, session.tenantId);
  if (tenant.missing) console.warn(`No tenant_id is stored; the request to ${url} is sent without one.`);
  return {
    method: (config.method ?? 'GET').toUpperCase() as HttpMethod,
    url: tenant.url ?? url,
    params: tenant.params,
    headers,
    data,
    responseType: config.responseType ?? 'json',
    timeout: config.timeout ?? http.defaults.timeout,
    signal: config.signal,
    onUploadProgress: config.onUploadProgress,
  };
}

/** An error body of a blob request arrives as a Blob: read it back as JSON when it is JSON. */
async function readBody(data: unknown): Promise<unknown> {
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    try {
      return JSON.parse(await data.text()) as unknown;
    } catch {
      return null;
    }
  }
  return data;
}

let refreshInFlight: Promise<string> | null = null;

async function requestNewAccessToken(): Promise<string> {
  const refresh = getSession().refreshToken;
  if (!refresh) {
    throw new ApiError({
      message: CLIENT_ERROR_MESSAGES.noRefreshToken,
      code: 401,
      error: CLIENT_ERROR_KEYS.noRefreshToken,
      status: 401,
    });
  }
  try {
    const response = await http.post<Envelope<RefreshData>>(REFRESH_URL, { refresh }, { skipAuthRefresh: true });
    const access = response.data.data?.access;
    if (!access) throw new ApiError({ message: CLIENT_ERROR_MESSAGES.refreshFailed, code: 401, error: CLIENT_ERROR_KEYS.refreshFailed });
    setTokens(access, response.data.data.refresh);
    return access;
  } catch (error) {
    // The server's message when it answered; otherwise (no answer, no message) the docs/specification.md text.
    const answered = error instanceof ApiError && error.status !== undefined;
    const message = answered && error.message ? error.message : CLIENT_ERROR_MESSAGES.refreshFailed;
    throw new ApiError({
      message,
      code: error instanceof ApiError ? error.code : 401,
      error: error instanceof ApiError && error.error ? error.error : CLIENT_ERROR_KEYS.refreshFailed,
      status: error instanceof ApiError ? error.status : undefined,
      cause: error,
    });
  }
}

/**
 * Refreshes the access token. Concurrent callers share one refresh: the first 401 starts it and
 * every other 401 that arrives meanwhile waits for the same promise.
 */
export function refreshAccessToken(): Promise<string> {
  if (!refreshInFlight) {
    refreshInFlight = requestNewAccessToken().finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

/** Refresh failed: sign out and load the login page afresh, coming back here afterwards. */
function endSessionAndGoToLogin(): void {
  clearSession();
  const here = `${window.location.pathname}${window.location.search}`;
  browserLocation.assign(loginUrl(here));
}

async function onError<T>(error: unknown, config: RequestConfig): Promise<HttpResponse<T>> {
  // A cancelled request is passed on silently.
  if (isCancel(error)) throw error;
  if (error instanceof ApiError) throw error;

  if (error instanceof TransportError) {
    const timeout = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
    if (!getSession().tenantId) {
      console.warn('Network error: no tenant_id is stored. If this persists, choose a company and try again.');
    }
    throw new ApiError({
      message: error.message || 'Network Error',
      code: 0,
      error: timeout ? CLIENT_ERROR_KEYS.timeout : CLIENT_ERROR_KEYS.network,
      cause: error,
    });
  }
  if (!(error instanceof HttpStatusError)) throw error;

  const { status } = error.response;
  const body = await readBody(error.response.data);

  if (status === 401 && !config.skipAuthRefresh && !config.authRetried && !isPublicPath(window.location.pathname)) {
    try {
      await refreshAccessToken();
    } catch (refreshError) {
      endSessionAndGoToLogin();
      throw refreshError;
    }
    return send<T>({ ...config, authRetried: true });
  }

  throw httpError(status, body, error.message, error);
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A random key (crypto.getRandomValues: also on plain-HTTP addresses, where randomUUID is missing). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Every submit (POST) carries a new Idempotency-Key unless the caller gives one; the retry after a token
 * refresh is the same submit and sends the same key, so a write the server already did is answered, not
 * done again (backend apps/common/idempotency.py).
 */
function withIdempotencyKey(config: RequestConfig): RequestConfig {
  if ((config.method ?? 'GET').toUpperCase() !== 'POST') return config;
  if (new HttpHeaders(config.headers).has(IDEMPOTENCY_HEADER)) return config;
  return { ...config, headers: { ...config.headers, [IDEMPOTENCY_HEADER]: newIdempotencyKey() } };
}

async function send<T>(original: RequestConfig): Promise<HttpResponse<T>> {
  const config = withIdempotencyKey(original);
  let response: HttpResponse;
  try {
    const answer = await http.transport(prepare(config));
    if (answer.status < 200 || answer.status >= 300) throw new HttpStatusError(answer);
    response = { ...answer, config };
  } catch (error) {
    return onError<T>(error, config);
  }
  if (config.responseType !== 'blob') response.data = normalizeEnvelope(response.status, response.data);
  return response as HttpResponse<T>;
}

type BodylessConfig = Omit<RequestConfig, 'url' | 'method'>;
type BodyConfig = Omit<RequestConfig, 'url' | 'method' | 'data'>;

export interface HttpClient {
  defaults: { baseURL: string; timeout: number; headers: Record<string, string> };
  /** Sends the prepared request; tests replace it (src/test/mockAdapter.ts). */
  transport: Transport;
  request<T = unknown>(config: RequestConfig): Promise<HttpResponse<T>>;
  get<T = unknown>(url: string, config?: BodylessConfig): Promise<HttpResponse<T>>;
  delete<T = unknown>(url: string, config?: BodylessConfig): Promise<HttpResponse<T>>;
  post<T = unknown>(url: string, data?: unknown, config?: BodyConfig): Promise<HttpResponse<T>>;
  put<T = unknown>(url: string, data?: unknown, config?: BodyConfig): Promise<HttpResponse<T>>;
  patch<T = unknown>(url: string, data?: unknown, config?: BodyConfig): Promise<HttpResponse<T>>;
}

/**
 * The response of a non-binary request has the envelope as `data` (a plain 2xx body wrapped as
 * code 200); a `responseType: 'blob'` response has the Blob.
 */
export const http: HttpClient = {
  defaults: {
    baseURL: '',
    timeout: REQUEST_TIMEOUT_MS,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  },
  transport: xhrTransport,
  request: (config) => send(config),
  get: (url, config) => send({ ...config, url, method: 'GET' }),
  delete: (url, config) => send({ ...config, url, method: 'DELETE' }),
  post: (url, data, config) => send({ ...config, url, method: 'POST', data }),
  put: (url, data, config) => send({ ...config, url, method: 'PUT', data }),
  patch: (url, data, config) => send({ ...config, url, method: 'PATCH', data }),
};

/* ---------- typed helpers: resolve to the envelope's data ---------- */

export async function get<T>(url: string, config?: BodylessConfig): Promise<T> {
  const response = await http.get<Envelope<T>>(url, config);
  return response.data.data;
}

export async function post<T, B = unknown>(url: string, body?: B, config?: BodyConfig): Promise<T> {
  const response = await http.post<Envelope<T>>(url, body, config);
  return response.data.data;
}

export async function put<T, B = unknown>(url: string, body?: B, config?: BodyConfig): Promise<T> {
  const response = await http.put<Envelope<T>>(url, body, config);
  return response.data.data;
}

export async function patch<T, B = unknown>(url: string, body?: B, config?: BodyConfig): Promise<T> {
  const response = await http.patch<Envelope<T>>(url, body, config);
  return response.data.data;
}

export async function del<T = null>(url: string, config?: BodylessConfig): Promise<T> {
  const response = await http.delete<Envelope<T>>(url, config);
  return response.data.data;
}

/** The whole envelope, for callers that show the server's success message. */
export async function request<T>(config: RequestConfig): Promise<Envelope<T>> {
  const response = await http.request<Envelope<T>>(config);
  return response.data;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

function fileNameFrom(disposition: string | undefined): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

/** A file download (no envelope) through the same client: auth, tenant and refresh apply. */
export async function download(url: string, config?: BodylessConfig): Promise<DownloadedFile> {
  const response = await http.get<Blob>(url, { ...config, responseType: 'blob' });
  return { blob: response.data, fileName: fileNameFrom(response.headers['content-disposition']) };
}
