/** Parent vendor of a supplier user (docs/specification.md section 6): user info, route parameter, query `pv`, stored value. */
import type { UserInfo } from '@/api/types';
import { isSupplierPortalPath, paths, type SupplierSection } from '@/shared/routing/paths';
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
  if (!isSupplierPortalPath(pathname)) return null;
  if (resolved.source !== 'stored' || !resolved.id) return null;
  return paths.supplierBase('raw-materials', resolved.id);
}

/** Portal paths for a resolved parent vendor, keeping the source that made it known. */
export function supplierPath(section: SupplierSection, resolved: ResolvedParentVendor): string {
  if (resolved.id && (resolved.source === 'route' || resolved.source === 'query')) {
    return paths.supplierSection(section, { id: resolved.id, in: resolved.source });
  }
  return paths.supplierSection(section);
}
