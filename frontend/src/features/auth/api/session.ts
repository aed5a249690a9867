/** Sign-in and sign-out (docs/specification.md sections 3, 4, 8; docs/design.md section 8: sign-out revokes the refresh token). */
import { post } from '@/api/http';
import { isApiError } from '@/api/errors';
import { browserLocation } from '@/api/hardNavigate';
import { LOGIN_PATH } from '@/api/publicRoutes';
import { queryClient } from '@/api/queryClient';
import type { LoginData } from '@/api/types';
import { clearSession, getSession, startSession } from '@/shared/session/sessionStore';
import { runSignedInStartup } from '@/shared/startup';

export const LOGIN_URL = '/api/users/login/';
export const LOGOUT_URL = '/api/users/logout/';

export interface Credentials {
  username: string;
  password: string;
  remember: boolean;
}

export type LoginResult = { success: true } | { success: false; message: string; network: boolean };

/**
 * Signs in. On success the session is stored and the tenant and content types are set up before
 * the caller navigates. On failure: the server's message, or `network: true` for 'Network error occurred'.
 */
export async function login({ username, password, remember }: Credentials): Promise<LoginResult> {
  try {
    const data = await post<LoginData>(LOGIN_URL, { username, password }, { skipAuthRefresh: true });
    startSession({ username, access: data.access, refresh: data.refresh, user: data.user, remember });
    queryClient.clear();
    await runSignedInStartup();
    return { success: true };
  } catch (error) {
    if (isApiError(error) && !error.isNetworkError && error.message) {
      return { success: false, message: error.message, network: false };
    }
    return { success: false, message: 'Network error occurred', network: true };
  }
}

/** Revokes the refresh token (best effort), clears everything and loads the login page. */
export async function signOut(): Promise<void> {
  const refresh = getSession().refreshToken;
  if (refresh) {
    try {
      await post(LOGOUT_URL, { refresh }, { skipAuthRefresh: true });
    } catch (error) {
      console.warn('The server could not revoke the session; it is cleared here anyway.', error);
    }
  }
  clearSession();
  queryClient.clear();
  browserLocation.assign(LOGIN_PATH);
}
