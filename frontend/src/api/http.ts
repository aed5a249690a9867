/**
 * The one HTTP client of the app (SPEC.md sections 4, 5, 7, 8): an axios instance with the headers,
 * the tenant parameter, the envelope rules and the token refresh. Feature code calls the typed
 * helpers at the bottom (get/post/put/patch/del/download), which resolve to the envelope's `data`
 * and reject with ApiError.
 */
import axios, {
  AxiosHeaders,
  type AxiosError,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import {
  clearSession,
  getSession,
  setTokens,
} from '@/shared/session/sessionStore';
import { STORAGE_KEYS } from '@/shared/session/storageKeys';
import { httpError, normalizeEnvelope } from './envelope';
import { ApiError, CLIENT_ERROR_KEYS, CLIENT_ERROR_MESSAGES } from './errors';
import { browserLocation } from './hardNavigate';
import { isPublicPath, loginUrl } from './publicRoutes';
import { applyTenantParam } from './tenantParam';
import type { Envelope, RefreshData } from './types';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not try a token refresh on 401 (login, refresh and logout calls). */
    skipAuthRefresh?: boolean;
    /** Set on the retry after a refresh, so a request is refreshed at most once. */
    authRetried?: boolean;
  }
}

export const REQUEST_TIMEOUT_MS = 300000;
export const REFRESH_URL = '/api/users/refresh/';

export const http = axios.create({
  baseURL: '',
  timeout: REQUEST_TIMEOUT_MS,
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
});

export function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return null;
}

function onRequest(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const session = getSession();
  const headers = AxiosHeaders.from(config.headers);
  if (session.accessToken) headers.set('Authorization', `Bearer ${session.accessToken}`);
  const csrf = readCookie('csrftoken');
  if (csrf) headers.set('X-CSRFToken', csrf);
  const language = window.localStorage.getItem(STORAGE_KEYS.language);
  if (language) headers.set('Accept-Language', language);
  // FormData: let the browser write the multipart boundary.
  if (typeof FormData !== 'undefined' && config.data instanceof FormData) headers.setContentType(null);
  config.headers = headers;

  const tenant = applyTenantParam(config.url, config.params as Record<string, unknown> | URLSearchParams | undefined, session.tenantId);
  if (tenant.missing) console.warn(`No tenant_id is stored; the request to ${config.url ?? ''} is sent without one.`);
  config.url = tenant.url;
  config.params = tenant.params;
  return config;
}

function isBinary(config: AxiosRequestConfig): boolean {
  return config.responseType === 'blob' || config.responseType === 'arraybuffer';
}

function onResponse(response: AxiosResponse): AxiosResponse {
  if (isBinary(response.config)) return response;
  response.data = normalizeEnvelope(response.status, response.data);
  return response;
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
    // The server's message when it answered; otherwise (no answer, no message) the SPEC.md text.
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

async function onResponseError(error: unknown): Promise<never> {
  // A cancelled request is passed on silently.
  if (axios.isCancel(error)) throw error;
  if (error instanceof ApiError) throw error;
  if (!axios.isAxiosError(error)) throw error;
  const axiosError = error as AxiosError;
  const config = axiosError.config;

  if (!axiosError.response) {
    const timeout = axiosError.code === 'ECONNABORTED' || axiosError.code === 'ETIMEDOUT';
    if (!getSession().tenantId) {
      console.warn('Network error: no tenant_id is stored. If this persists, choose a company and try again.');
    }
    throw new ApiError({
      message: axiosError.message || 'Network Error',
      code: 0,
      error: timeout ? CLIENT_ERROR_KEYS.timeout : CLIENT_ERROR_KEYS.network,
      cause: error,
    });
  }

  const { status } = axiosError.response;
  const body = await readBody(axiosError.response.data);

  if (
    status === 401 &&
    config &&
    !config.skipAuthRefresh &&
    !config.authRetried &&
    !isPublicPath(window.location.pathname)
  ) {
    try {
      await refreshAccessToken();
    } catch (refreshError) {
      endSessionAndGoToLogin();
      throw refreshError;
    }
    config.authRetried = true;
    return http.request(config);
  }

  throw httpError(status, body, axiosError.message, error);
}

http.interceptors.request.use(onRequest);
http.interceptors.response.use(onResponse, onResponseError);

/* ---------- typed helpers: resolve to the envelope's data ---------- */

export async function get<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
  const response = await http.get<Envelope<T>>(url, config);
  return response.data.data;
}

export async function post<T, B = unknown>(url: string, body?: B, config?: AxiosRequestConfig): Promise<T> {
  const response = await http.post<Envelope<T>>(url, body, config);
  return response.data.data;
}

export async function put<T, B = unknown>(url: string, body?: B, config?: AxiosRequestConfig): Promise<T> {
  const response = await http.put<Envelope<T>>(url, body, config);
  return response.data.data;
}

export async function patch<T, B = unknown>(url: string, body?: B, config?: AxiosRequestConfig): Promise<T> {
  const response = await http.patch<Envelope<T>>(url, body, config);
  return response.data.data;
}

export async function del<T = null>(url: string, config?: AxiosRequestConfig): Promise<T> {
  const response = await http.delete<Envelope<T>>(url, config);
  return response.data.data;
}

/** The whole envelope, for callers that show the server's success message. */
export async function request<T>(config: AxiosRequestConfig): Promise<Envelope<T>> {
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
export async function download(url: string, config?: AxiosRequestConfig): Promise<DownloadedFile> {
  const response = await http.get<Blob>(url, { ...config, responseType: 'blob' });
  const disposition: unknown = response.headers['content-disposition'];
  return { blob: response.data, fileName: fileNameFrom(typeof disposition === 'string' ? disposition : undefined) };
}
