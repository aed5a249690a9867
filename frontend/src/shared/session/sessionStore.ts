/**
 * The session: what docs/specification.md says lives in browser storage, nothing more (docs/style.md rule 8).
 * A tiny external store; React reads it through useSession (useSyncExternalStore).
 *
 * "Remember me" decides where the tokens live: localStorage (kept across browser restarts) or
 * sessionStorage (gone when the browser closes). Everything else lives in localStorage.
 */
import type { UserInfo } from '@/api/types';
import { STORAGE_KEYS } from './storageKeys';

export interface SessionState {
  username: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  vismaOwnerId: string | null;
  rememberUser: boolean;
  userInfo: UserInfo | null;
  tenantId: string | null;
  parentVendorId: string | null;
}

type Listener = () => void;

const AUTH_KEYS = [
  STORAGE_KEYS.username,
  STORAGE_KEYS.accessToken,
  STORAGE_KEYS.refreshToken,
  STORAGE_KEYS.vismaOwnerId,
] as const;

function local(): Storage {
  return window.localStorage;
}

function session(): Storage {
  return window.sessionStorage;
}

/** Reads an auth key from whichever storage holds it (sessionStorage wins: it is the newer choice). */
function readAuth(key: string): string | null {
  return session().getItem(key) ?? local().getItem(key);
}

/** Parses stored user info; unparseable JSON is removed (docs/specification.md section 4) and logged. */
export function readStoredUserInfo(): UserInfo | null {
  const raw = local().getItem(STORAGE_KEYS.userInfo);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('user info is not an object');
    }
    return parsed as UserInfo;
  } catch (error) {
    console.error('Stored user info could not be parsed and was cleared.', error);
    local().removeItem(STORAGE_KEYS.userInfo);
    return null;
  }
}

function readAll(): SessionState {
  return {
    username: readAuth(STORAGE_KEYS.username),
    accessToken: readAuth(STORAGE_KEYS.accessToken),
    refreshToken: readAuth(STORAGE_KEYS.refreshToken),
    vismaOwnerId: readAuth(STORAGE_KEYS.vismaOwnerId),
    rememberUser: local().getItem(STORAGE_KEYS.rememberUser) !== 'false',
    userInfo: readStoredUserInfo(),
    tenantId: local().getItem(STORAGE_KEYS.tenantId),
    parentVendorId: local().getItem(STORAGE_KEYS.currentParentVendorId),
  };
}

let state: SessionState = readAll();
const listeners = new Set<Listener>();

function emit(next: SessionState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-reads everything from storage (start-up, another tab changed it, tests). */
export function reloadSession(): void {
  emit(readAll());
}

export function isAuthenticated(s: SessionState = state): boolean {
  return Boolean(s.accessToken);
}

function writeAuth(key: string, value: string | null, remember: boolean): void {
  local().removeItem(key);
  session().removeItem(key);
  if (value !== null && value !== '') (remember ? local() : session()).setItem(key, value);
}

export interface LoginSessionInput {
  username: string;
  access: string;
  refresh: string;
  user: UserInfo;
  remember: boolean;
}

/** Session after a successful login (code 200): tokens and user info stored. */
export function startSession(input: LoginSessionInput): void {
  const vismaOwnerId = input.user.visma_owner_id == null ? null : String(input.user.visma_owner_id);
  local().setItem(STORAGE_KEYS.rememberUser, String(input.remember));
  writeAuth(STORAGE_KEYS.username, input.username, input.remember);
  writeAuth(STORAGE_KEYS.accessToken, input.access, input.remember);
  writeAuth(STORAGE_KEYS.refreshToken, input.refresh, input.remember);
  writeAuth(STORAGE_KEYS.vismaOwnerId, vismaOwnerId, input.remember);
  local().setItem(STORAGE_KEYS.userInfo, JSON.stringify(input.user));
  emit({
    ...state,
    username: input.username,
    accessToken: input.access,
    refreshToken: input.refresh,
    vismaOwnerId,
    rememberUser: input.remember,
    userInfo: input.user,
  });
}

/** Stores a refreshed access token (and the rotated refresh token when the server sends one). */
export function setTokens(access: string, refresh?: string): void {
  writeAuth(STORAGE_KEYS.accessToken, access, state.rememberUser);
  if (refresh) writeAuth(STORAGE_KEYS.refreshToken, refresh, state.rememberUser);
  emit({ ...state, accessToken: access, refreshToken: refresh ?? state.refreshToken });
}

export function setUserInfo(user: UserInfo): void {
  local().setItem(STORAGE_KEYS.userInfo, JSON.stringify(user));
  emit({ ...state, userInfo: user });
}

/** Partial update merges; with no user info loaded it is ignored with a warning (docs/specification.md section 4). */
export function updateUserInfo(partial: Partial<UserInfo>): void {
  if (!state.userInfo) {
    console.warn('updateUserInfo ignored: no user info is loaded.');
    return;
  }
  setUserInfo({ ...state.userInfo, ...partial });
}

export function clearUserInfo(): void {
  local().removeItem(STORAGE_KEYS.userInfo);
  emit({ ...state, userInfo: null });
}

export function setTenantId(tenantId: string): void {
  local().setItem(STORAGE_KEYS.tenantId, tenantId);
  emit({ ...state, tenantId });
}

export function setParentVendorId(parentVendorId: string | null): void {
  if (parentVendorId === null) local().removeItem(STORAGE_KEYS.currentParentVendorId);
  else local().setItem(STORAGE_KEYS.currentParentVendorId, parentVendorId);
  emit({ ...state, parentVendorId });
}

/**
 * Sign-out: clears every stored session value and the user info. The language and theme are the
 * browser's preferences, not the session's, and stay; so does the "remember me" choice. With
 * "remember me" the username also stays (in localStorage), so the login form offers it next time;
 * the tokens are always cleared.
 */
export function clearSession(): void {
  const keepUsername = state.rememberUser ? local().getItem(STORAGE_KEYS.username) : null;
  for (const key of AUTH_KEYS) {
    local().removeItem(key);
    session().removeItem(key);
  }
  if (keepUsername) local().setItem(STORAGE_KEYS.username, keepUsername);
  local().removeItem(STORAGE_KEYS.userInfo);
  local().removeItem(STORAGE_KEYS.tenantId);
  local().removeItem(STORAGE_KEYS.currentParentVendorId);
  emit({
    ...state,
    username: keepUsername,
    accessToken: null,
    refreshToken: null,
    vismaOwnerId: null,
    userInfo: null,
    tenantId: null,
    parentVendorId: null,
  });
}

// Another tab signed in, out, or switched tenant: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage) reloadSession();
  });
}
