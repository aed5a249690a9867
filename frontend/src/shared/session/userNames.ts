/** Name fall-backs of docs/specification.md section 3 "User info". */
import type { ParentVendorRef, UserInfo } from '@/api/types';

type NameFields = Pick<UserInfo, 'username' | 'name' | 'profile_name' | 'first_name' | 'last_name'>;

function filled(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** profile_name, then name, then username. */
export function displayName(user: NameFields | null | undefined): string {
  if (!user) return '';
  if (filled(user.profile_name)) return user.profile_name;
  if (filled(user.name)) return user.name;
  return user.username ?? '';
}

/** name, then first and last name, then profile_name, then username. */
export function fullName(user: NameFields | null | undefined): string {
  if (!user) return '';
  if (filled(user.name)) return user.name;
  const firstLast = [user.first_name, user.last_name].filter(filled).join(' ');
  if (firstLast !== '') return firstLast;
  if (filled(user.profile_name)) return user.profile_name;
  return user.username ?? '';
}

/** cname unless the stored language is English; falls back to name. A bare id has no name. */
export function parentVendorName(parentVendor: UserInfo['parent_vendor'], language: string | null): string {
  if (!isParentVendorRef(parentVendor)) return '';
  if (language !== 'en' && filled(parentVendor.cname)) return parentVendor.cname;
  return parentVendor.name ?? '';
}

export function isParentVendorRef(value: UserInfo['parent_vendor']): value is ParentVendorRef {
  return typeof value === 'object' && value !== null;
}

export function parentVendorIdOf(user: Pick<UserInfo, 'parent_vendor'> | null | undefined): string | null {
  const pv = user?.parent_vendor;
  if (pv === null || pv === undefined) return null;
  if (typeof pv === 'number') return String(pv);
  return pv.id === undefined || pv.id === null ? null : String(pv.id);
}
