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

/** docs/specification.md section 8 texts, kept verbatim; the UI translates by `error` key where it can. */
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

/**
 * Field errors keyed by dotted path, the way the server nests them: `{field: [msg, ...]}` or
 * `{field: msg}` at the top; nested serializers and lists give `{contacts: [{}, {email: [msg]}]}` or
 * `{contacts: {"1": {email: [msg]}}}`, both flattened to `{"contacts.1.email": [msg]}` (an Ant Design
 * name path `['contacts', 1, 'email']` joined by dots). Anything with a non-text leaf (numbers, flags,
 * null: a business error's data) is not field errors: null.
 */
export function toFieldErrors(data: unknown): FieldErrors | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const result: FieldErrors = {};
  const add = (path: string, message: string) => {
    (result[path] ??= []).push(message);
  };
  const walk = (path: string, value: unknown): boolean => {
    if (typeof value === 'string') {
      add(path, value);
      return true;
    }
    if (Array.isArray(value)) {
      return value.every((item, index) => (typeof item === 'string' ? (add(path, item), true) : walk(`${path}.${index}`, item)));
    }
    if (typeof value === 'object' && value !== null) {
      return Object.entries(value).every(([key, item]) => walk(`${path}.${key}`, item));
    }
    return false;
  };
  for (const [field, value] of Object.entries(data)) {
    if (!walk(field, value)) return null;
  }
  return Object.keys(result).length > 0 ? result : null;
}
