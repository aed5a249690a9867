import { useSession } from '@/shared/session/useSession';

/**
 * True when the user's roles in the current tenant grant the permission, or when the permission list
 * is not loaded yet (the server decides every action; this only hides what would be refused).
 */
export function useMayPermission(permission: string): boolean {
  return useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes(permission);
  });
}

export const PURCHASE_PERMS = {
  add: 'purchaseorders.add_purchaseorder',
  change: 'purchaseorders.change_purchaseorder',
  delete: 'purchaseorders.delete_purchaseorder',
  receive: 'purchaseorders.add_receipt',
  overReceive: 'purchaseorders.allow_over_receipt',
} as const;
