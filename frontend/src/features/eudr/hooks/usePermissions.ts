import { useSession } from '@/shared/session/useSession';

/**
 * The signed-in user's permissions in the current tenant (from /api/users/me/?tenant_id=). The server
 * decides every action; this only hides what would be refused.
 */
export function useHasPermission(permission: string): boolean {
  return useSession((s) => Boolean(s.userInfo?.permissions?.includes(permission)));
}

/** True when the permission is granted, or when the permission list is not loaded (the server decides). */
export function useMayPermission(permission: string): boolean {
  return useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes(permission);
  });
}

export const APPROVE_OVER_CAP = 'eudr.approve_over_cap';
export const CHANGE_DELIVERY = 'eudr.change_rawmaterialdelivery';
export const DELETE_DELIVERY = 'eudr.delete_rawmaterialdelivery';
