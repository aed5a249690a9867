/** User type derivation (docs/specification.md section 6) and the layout it selects (docs/specification.md section 2). */
import type { UserInfo, UserType } from '@/api/types';

export function userTypeOf(user: Pick<UserInfo, 'is_warehouse' | 'is_supplier'>): UserType {
  if (user.is_warehouse) return 'warehouse';
  if (user.is_supplier) return 'supplier';
  return 'internal';
}

/** External user and supplier user both mean is_supplier. */
export function isExternalUser(user: Pick<UserInfo, 'is_supplier'> | null | undefined): boolean {
  return Boolean(user?.is_supplier);
}

export type LayoutKind = 'default' | 'warehouse' | 'supplier';

/** Warehouse user -> warehouse; supplier (external) user -> supplier; everyone else and no user info yet -> default. */
export function layoutFor(user: Pick<UserInfo, 'is_warehouse' | 'is_supplier'> | null | undefined): LayoutKind {
  if (!user) return 'default';
  const type = userTypeOf(user);
  return type === 'internal' ? 'default' : type;
}
