import type { FieldErrors } from './types';

/**
 * Stable keys for failures the client itself detects. Server errors carry the server's own `error`
 * key (docs/api-contract.md), e.g. `validation_error` or `insufficient_weight`.
 */
export const CLIENT_ERROR_KEYS = {
  business: 'business_error',
  unknownFormat: 'unknown_response_format',
  network: 'network_error',
  timeout: 'timeout',
  noRefreshToken: 'no_refresh_token',
  refreshFailed: 'refresh_failed',
} as const;

/** SPEC.md section 8 texts, kept verbatim; the UI translates by `error` key where it can. */
export const CLIENT_ERROR_MESSAGES = {
  business: 'Business error',
  unknownFormat: 'Unknown response format',
  noRefreshToken: 'No refresh token available',
  refreshFailed: 'Network error during token refresh',
} as const;

export interface ApiErrorInit {
  message: string;
  code: number;
  error?: string;
  data?: unknown;
  status?: number;
  cause?: unknown;
}

/**
 * Every failed request rejects with an ApiError: the envelope's message, code, stable error key and
 * data (field errors for validation errors), so a form can show server errors on its fields.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly error: string | undefined;
  readonly data: unknown;
  readonly status: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.code = init.code;
    this.error = init.error;
    this.data = init.data ?? null;
    this.status = init.status;
  }

  /** Field errors `{field: [messages]}` when the server sent them, else null. */
  get fieldErrors(): FieldErrors | null {
    return toFieldErrors(this.data);
  }

  get isNetworkError(): boolean {
    return this.error === CLIENT_ERROR_KEYS.network || this.error === CLIENT_ERROR_KEYS.timeout;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Accepts `{field: [msg, ...]}` or `{field: msg}`; anything else is not field errors. */
export function toFieldErrors(data: unknown): FieldErrors | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const result: FieldErrors = {};
  for (const [field, value] of Object.entries(data)) {
    if (Array.isArray(value) && value.every((m) => typeof m === 'string')) result[field] = value;
    else if (typeof value === 'string') result[field] = [value];
    else return null;
  }
  return Object.keys(result).length > 0 ? result : null;
}
