import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/test/session';
import {
  clearSession,
  clearUserInfo,
  getSession,
  isAuthenticated,
  reloadSession,
  setParentVendorId,
  setTenantId,
  setTokens,
  setUserInfo,
  startSession,
  updateUserInfo,
} from './sessionStore';
import { STORAGE_KEYS } from './storageKeys';

afterEach(() => reloadSession());

describe('user info', () => {
  it('is set and stored under userInfo', () => {
    setUserInfo(makeUser({ username: 'bob' }));
    expect(getSession().userInfo?.username).toBe('bob');
    expect(JSON.parse(window.localStorage.getItem('userInfo')!)).toMatchObject({ username: 'bob' });
  });

  it('partial update merges', () => {
    setUserInfo(makeUser({ username: 'bob', email: 'a@x' }));
    updateUserInfo({ email: 'b@x', city: 'Oslo' });
    expect(getSession().userInfo).toMatchObject({ username: 'bob', email: 'b@x', city: 'Oslo' });
    expect(JSON.parse(window.localStorage.getItem('userInfo')!)).toMatchObject({ email: 'b@x', city: 'Oslo' });
  });

  it('partial update with nothing loaded is ignored with a warning', () => {
    reloadSession();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    updateUserInfo({ email: 'b@x' });
    expect(getSession().userInfo).toBeNull();
    expect(window.localStorage.getItem('userInfo')).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('clear also removes it from storage', () => {
    setUserInfo(makeUser());
    clearUserInfo();
    expect(getSession().userInfo).toBeNull();
    expect(window.localStorage.getItem('userInfo')).toBeNull();
  });

  it('unparseable stored JSON is cleared on reload', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.localStorage.setItem('userInfo', '{not json');
    reloadSession();
    expect(getSession().userInfo).toBeNull();
    expect(window.localStorage.getItem('userInfo')).toBeNull();
    expect(error).toHaveBeenCalled();
  });

  it('stored JSON that is not an object is cleared too', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.localStorage.setItem('userInfo', '"text"');
    reloadSession();
    expect(getSession().userInfo).toBeNull();
    expect(window.localStorage.getItem('userInfo')).toBeNull();
  });
});

describe('session', () => {
  it('starts with the storage keys of docs/specification.md', () => {
    startSession({ username: 'alice', access: 'a1', refresh: 'r1', user: makeUser({ visma_owner_id: 42 }), remember: true });
    const ls = window.localStorage;
    expect(ls.getItem('username')).toBe('alice');
    expect(ls.getItem('accessToken')).toBe('a1');
    expect(ls.getItem('refreshToken')).toBe('r1');
    expect(ls.getItem('vismaOwnerId')).toBe('42');
    expect(ls.getItem('rememberUser')).toBe('true');
    expect(ls.getItem('userInfo')).not.toBeNull();
    expect(isAuthenticated()).toBe(true);
  });

  it('without "remember me" keeps the tokens for this browser session only', () => {
    startSession({ username: 'alice', access: 'a1', refresh: 'r1', user: makeUser(), remember: false });
    expect(window.localStorage.getItem('accessToken')).toBeNull();
    expect(window.sessionStorage.getItem('accessToken')).toBe('a1');
    expect(window.localStorage.getItem('rememberUser')).toBe('false');
    setTokens('a2', 'r2');
    expect(window.sessionStorage.getItem('accessToken')).toBe('a2');
    expect(window.sessionStorage.getItem('refreshToken')).toBe('r2');
    reloadSession();
    expect(getSession().accessToken).toBe('a2');
  });

  it('stores the tenant and the current parent vendor', () => {
    setTenantId('3');
    setParentVendorId('17');
    expect(window.localStorage.getItem(STORAGE_KEYS.tenantId)).toBe('3');
    expect(window.localStorage.getItem('current_parent_vendor_id')).toBe('17');
    setParentVendorId(null);
    expect(window.localStorage.getItem('current_parent_vendor_id')).toBeNull();
  });

  it('sign-out clears every stored session value and the user info, keeping language and theme', () => {
    startSession({ username: 'alice', access: 'a1', refresh: 'r1', user: makeUser(), remember: true });
    setTenantId('2');
    setParentVendorId('5');
    window.localStorage.setItem('app-language', 'zh');
    window.localStorage.setItem('theme-config', '{}');
    clearSession();
    for (const key of ['userInfo', 'tenant_id', 'accessToken', 'refreshToken', 'vismaOwnerId', 'current_parent_vendor_id']) {
      expect(window.localStorage.getItem(key)).toBeNull();
    }
    expect(window.localStorage.getItem('app-language')).toBe('zh');
    expect(window.localStorage.getItem('theme-config')).toBe('{}');
    expect(getSession()).toMatchObject({ accessToken: null, refreshToken: null, userInfo: null, tenantId: null });
    expect(isAuthenticated()).toBe(false);
  });

  it('with "remember me" sign-out keeps the username for the login form, never the tokens', () => {
    startSession({ username: 'alice', access: 'a1', refresh: 'r1', user: makeUser(), remember: true });
    clearSession();
    expect(window.localStorage.getItem('username')).toBe('alice');
    expect(getSession().username).toBe('alice');
    for (const key of ['accessToken', 'refreshToken', 'vismaOwnerId']) {
      expect(window.localStorage.getItem(key)).toBeNull();
      expect(window.sessionStorage.getItem(key)).toBeNull();
    }
    expect(isAuthenticated()).toBe(false);
    reloadSession();
    expect(getSession()).toMatchObject({ username: 'alice', accessToken: null, rememberUser: true });
  });

  it('without "remember me" sign-out forgets the username too', () => {
    startSession({ username: 'alice', access: 'a1', refresh: 'r1', user: makeUser(), remember: false });
    clearSession();
    expect(window.localStorage.getItem('username')).toBeNull();
    expect(window.sessionStorage.getItem('username')).toBeNull();
    reloadSession();
    expect(getSession().username).toBeNull();
  });
});
