/**
 * Pages that work without a session. On them a 401 is an answer, not a reason to refresh tokens
 * (docs/specification.md section 4: "Routes flagged public skip this behaviour").
 */
import { paths, routePatterns } from '@/shared/routing/paths';

export const LOGIN_PATH = paths.login();
export const TRACE_PATH_PREFIX = routePatterns.trace.replace(':id', '');

export function isPublicPath(pathname: string): boolean {
  return pathname === LOGIN_PATH || pathname.startsWith(`${LOGIN_PATH}/`) || pathname.startsWith(TRACE_PATH_PREFIX);
}

/** The login URL that brings the user back to `returnTo` after sign-in (only same-site paths). */
export function loginUrl(returnTo?: string): string {
  if (!returnTo || !isSafeRedirect(returnTo) || isPublicPath(returnTo.split('?')[0] ?? '')) return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(returnTo)}`;
}

/** A path on this site: starts with one slash, not `//` (another host) and not `/\`. */
export function isSafeRedirect(target: string | null | undefined): target is string {
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\');
}
