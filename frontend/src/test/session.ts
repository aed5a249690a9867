import type { UserInfo } from '@/api/types';
import { reloadSession } from '@/shared/session/sessionStore';
import { STORAGE_KEYS } from '@/shared/session/storageKeys';

export function makeUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return { id: 1, username: 'alice', is_supplier: false, is_warehouse: false, ...overrides };
}

/** Puts a signed-in session into storage and reloads the store from it. */
export function signIn(options: { access?: string; refresh?: string | null; tenant?: string | null; user?: UserInfo } = {}): void {
  const storage = window.localStorage;
  storage.setItem(STORAGE_KEYS.accessToken, options.access ?? 'access-1');
  if (options.refresh === null) storage.removeItem(STORAGE_KEYS.refreshToken);
  else storage.setItem(STORAGE_KEYS.refreshToken, options.refresh ?? 'refresh-1');
  if (options.tenant === null) storage.removeItem(STORAGE_KEYS.tenantId);
  else storage.setItem(STORAGE_KEYS.tenantId, options.tenant ?? '2');
  storage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(options.user ?? makeUser()));
  reloadSession();
}
