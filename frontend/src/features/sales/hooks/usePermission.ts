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
