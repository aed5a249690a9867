import { useMatches, type UIMatch } from 'react-router';
import type { UserType } from '@/api/types';

/** Route meta (docs/specification.md section 2): every route has a title (an i18n key) and says if it needs a session. */
export interface RouteMeta {
  /** i18n key of the page title, e.g. `nav:routes.salesOrders`. */
  title: string;
  requiresAuth: boolean;
  /** Visible to staff (is_staff) only: the /test/* pages. */
  staffOnly?: boolean;
  /**
   * The kinds of user the page serves (pages inside a layout; the router's `page()` fills it, internal
   * users only unless the route says otherwise). Any other kind gets the forbidden page.
   */
  userTypes?: readonly UserType[];
}

export function isRouteMeta(value: unknown): value is RouteMeta {
  return typeof value === 'object' && value !== null && 'title' in value && 'requiresAuth' in value;
}

export function metaOf(matches: readonly UIMatch[]): RouteMeta | undefined {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isRouteMeta(handle)) return handle;
  }
  return undefined;
}

/** The meta of the deepest matched route that has one. */
export function useRouteMeta(): RouteMeta | undefined {
  return metaOf(useMatches());
}

export function requiresAuth(matches: readonly UIMatch[]): boolean {
  return matches.some((m) => isRouteMeta(m.handle) && m.handle.requiresAuth);
}

/**
 * Whether the deepest route that declares user types serves `type`. A route without a declaration (the
 * login page, the not-found page) serves everyone.
 */
export function servesUserType(matches: readonly UIMatch[], type: UserType): boolean {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isRouteMeta(handle) && handle.userTypes) return handle.userTypes.includes(type);
  }
  return true;
}

export function isStaffOnly(matches: readonly UIMatch[]): boolean {
  return matches.some((m) => isRouteMeta(m.handle) && m.handle.staffOnly === true);
}
