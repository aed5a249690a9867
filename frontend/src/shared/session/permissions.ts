import { useSession } from './useSession';
import type { SessionState } from './sessionStore';

/**
 * The signed-in user's permissions in the current tenant (from /api/users/me/?tenant_id=). The server
 * decides every action; these only hide what it would refuse.
 */

/** True when the user's roles grant the permission, or while the permission list is not loaded yet. */
export function mayPermission(state: Pick<SessionState, 'userInfo'>, permission: string): boolean {
  const list = state.userInfo?.permissions;
  return list === undefined || list.includes(permission);
}

export function useMayPermission(permission: string): boolean {
  return useSession((s) => mayPermission(s, permission));
}

/** True only when the loaded permission list grants it (for what must stay hidden until known). */
export function useHasPermission(permission: string): boolean {
  return useSession((s) => Boolean(s.userInfo?.permissions?.includes(permission)));
}
