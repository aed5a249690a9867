/** Envelope rules of docs/specification.md section 8 as pure functions (src/api/http.ts calls these). */
import { ApiError, CLIENT_ERROR_KEYS, CLIENT_ERROR_MESSAGES } from './errors';
import type { Envelope } from './types';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Success codes, exactly as docs/specification.md section 8 says: 200 or 0. Any other code is a business error (the API
 * answers every success with code 200 in the body, creates too; only the HTTP status is 201).
 */
export function isSuccessCode(code: number): boolean {
  return code === 0 || code === 200;
}

/**
 * Turns a received body into the envelope, or throws the ApiError docs/specification.md prescribes:
 * - a numeric code of 200 or 0: success, the body is returned as is;
 * - any other code: a business error with message (or 'Business error'), code and data;
 * - a plain HTTP 2xx body without a code: wrapped as code 200, message 'success';
 * - anything else: 'Unknown response format'.
 */
export function normalizeEnvelope<T = unknown>(status: number, body: unknown): Envelope<T> {
  if (isRecord(body) && typeof body.code === 'number') {
    if (isSuccessCode(body.code)) {
      return {
        code: body.code,
        message: typeof body.message === 'string' ? body.message : 'success',
        data: body.data as T,
        ...(typeof body.error === 'string' ? { error: body.error } : {}),
      };
    }
    throw new ApiError({
      message: typeof body.message === 'string' && body.message !== '' ? body.message : CLIENT_ERROR_MESSAGES.business,
      code: body.code,
      error: typeof body.error === 'string' ? body.error : CLIENT_ERROR_KEYS.business,
      data: body.data ?? null,
      status,
    });
  }
  if (status >= 200 && status < 300) {
    return { code: 200, message: 'success', data: (body === '' ? null : body) as T };
  }
  throw new ApiError({
    message: CLIENT_ERROR_MESSAGES.unknownFormat,
    code: status,
    error: CLIENT_ERROR_KEYS.unknownFormat,
    status,
  });
}

/** Error text: the response's message, then its detail, then the error's own message. */
export function errorText(body: unknown, fallback: string): string {
  if (isRecord(body)) {
    if (typeof body.message === 'string' && body.message !== '') return body.message;
    if (typeof body.detail === 'string' && body.detail !== '') return body.detail;
  }
  return fallback;
}

/** Builds the ApiError for a non-2xx HTTP response. */
export function httpError(status: number, body: unknown, fallbackMessage: string, cause?: unknown): ApiError {
  const record = isRecord(body) ? body : null;
  return new ApiError({
    message: errorText(body, fallbackMessage),
    code: record && typeof record.code === 'number' ? record.code : status,
    error: record && typeof record.error === 'string' ? record.error : undefined,
    data: record ? (record.data ?? null) : null,
    status,
    cause,
  });
}
