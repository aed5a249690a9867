/** Parent vendor of a supplier user (docs/specification.md section 6): user info, route parameter, query `pv`, stored value. */
import type { UserInfo } from '@/api/types';
import { parentVendorIdOf } from './userNames';

export type ParentVendorSource = 'user' | 'route' | 'query' | 'stored';

export interface ResolvedParentVendor {
  id: string | null;
  source: ParentVendorSource | null;
}

export interface ParentVendorInputs {
  user: Pick<UserInfo, 'parent_vendor'> | null | undefined;
  routeParam: string | null | undefined;
  queryPv: string | null | undefined;
  stored: string | null | undefined;
}

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function resolveParentVendor({ user, routeParam, queryPv, stored }: ParentVendorInputs): ResolvedParentVendor {
  const fromUser = parentVendorIdOf(user);
  if (fromUser) return { id: fromUser, source: 'user' };
  if (present(routeParam)) return { id: routeParam, source: 'route' };
  if (present(queryPv)) return { id: queryPv, source: 'query' };
  if (present(stored)) return { id: stored, source: 'stored' };
  return { id: null, source: null };
}

/**
 * The supplier redirect rule (docs/specification.md section 2): a supplier on a /supplier/ path whose parent vendor
 * is known only from storage goes to that vendor's raw-materials path. Returns the target or null.
 */
export function supplierRedirect(pathname: string, resolved: ResolvedParentVendor): string | null {
  if (!pathname.startsWith('/supplier/')) return null;
  if (resolved.source !== 'stored' || !resolved.id) return null;
  return `/supplier/${encodeURIComponent(resolved.id)}/raw-materials`;
}

/** Portal paths for a resolved parent vendor, keeping the source that made it known. */
export function supplierPath(section: 'raw-materials' | 'orders', resolved: ResolvedParentVendor): string {
  if (resolved.id && resolved.source === 'route') return `/supplier/${encodeURIComponent(resolved.id)}/${section}`;
  if (resolved.id && resolved.source === 'query') return `/supplier/${section}?pv=${encodeURIComponent(resolved.id)}`;
  return `/supplier/${section}`;
}
