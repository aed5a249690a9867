import { useSession } from '@/shared/session/useSession';

/** Whether the signed-in user holds `permission` ("app_label.codename") in the current tenant. The
 * server decides; this only hides what would be refused. */
export function usePermission(permission: string): boolean {
  return useSession((state) => state.userInfo?.permissions?.includes(permission) ?? false);
}
