/**
 * Start-up order (docs/specification.md section 4): language, then tenant, then content types.
 * The language is set synchronously before the first render (src/main.tsx); this runs the rest, at
 * start-up when a session exists and again right after sign-in.
 */
import { ME_URL } from '@/api/endpoints';
import { get } from '@/api/http';
import type { UserInfo } from '@/api/types';
import { preloadContentTypes } from '@/shared/contentTypes/registry';
import { isAuthenticated, setUserInfo } from '@/shared/session/sessionStore';
import { ensureTenant } from '@/shared/tenants/tenants';

export { ME_URL };

/** Keeps the stored user info in step with the server (names, parent vendor, permissions in the tenant). */
export async function refreshUserInfo(): Promise<void> {
  try {
    setUserInfo(await get<UserInfo>(ME_URL));
  } catch (error) {
    console.error('User info could not be refreshed.', error);
  }
}

export async function runSignedInStartup(): Promise<void> {
  if (!isAuthenticated()) return;
  await ensureTenant();
  await Promise.all([preloadContentTypes(), refreshUserInfo()]);
}
