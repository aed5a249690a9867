import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CLIENT_ERROR_KEYS, isApiError } from '@/api/errors';
import { ContentTypeNotFoundError } from '@/shared/contentTypes/contentTypes';

const CLIENT_KEYS = new Set<string>(Object.values(CLIENT_ERROR_KEYS));

/**
 * The text to show for an error. Server messages are already in the user's language
 * (Accept-Language); failures the client detects itself are translated by their key.
 */
export function errorTextOf(error: unknown, t: TFunction): string {
  if (isApiError(error)) {
    if (error.error && CLIENT_KEYS.has(error.error)) return t(`errors:${error.error}`);
    if (error.message) return error.message;
  }
  if (error instanceof ContentTypeNotFoundError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return t('errors:unknown');
}

export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => errorTextOf(error, t), [t]);
}
