import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import { useOnlineStatus } from '@/shared/hooks/useOnlineStatus';
import { isStaffOnly, metaOf, servesUserType } from '@/shared/routing/routeMeta';
import { userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { lazy, Suspense } from 'react';
import { permissionLeaf } from '../layouts/navigation';
import type { ForbiddenNeed } from './ForbiddenPage';

const ForbiddenPage = lazy(async () => ({ default: (await import('./ForbiddenPage')).ForbiddenPage }));

/**
 * The page area of a layout. Each page serves some kinds of user (route meta `userTypes`): a supplier
 * who types an internal address gets the forbidden page, not the internal page (the API answers would
 * be scoped, but the page is not theirs). The /test/* pages are for staff (is_staff) only. An internal
 * user whose permissions in this company (from /api/users/me/) lack the one a menu page needs gets the
 * forbidden page too. The forbidden page says which user type, staff flag or permission the page needs.
 * While the device is offline, every page of every layout says so above its content, and what still works.
 */
export function RouteOutlet() {
  const matches = useMatches();
  const { pathname } = useLocation();
  const isStaff = useSession((s) => Boolean(s.userInfo?.is_staff));
  const userType = useSession((s) => (s.userInfo ? userTypeOf(s.userInfo) : null));
  const permissions = useSession((s) => s.userInfo?.permissions);
  const online = useOnlineStatus();
  const { t } = useTranslation();
  let need: ForbiddenNeed | null = null;
  if (isStaffOnly(matches) && !isStaff) need = { kind: 'staff' };
  else if (userType !== null && !servesUserType(matches, userType)) {
    need = { kind: 'userTypes', types: metaOf(matches)?.userTypes ?? [] };
  } else if (userType === 'internal' && permissions) {
    const leaf = permissionLeaf(pathname.replace(/\/$/, '') || '/');
    if (leaf && !permissions.includes(leaf.permission)) need = { kind: 'permission', permission: leaf.permission, page: leaf.label };
  }
  if (need) {
    return (
      <Suspense>
        <ForbiddenPage need={need} />
      </Suspense>
    );
  }
  return (
    <>
      {online ? null : <Alert type="warning" showIcon title={t('offline.notice')} data-testid="offline-notice" style={{ marginBottom: 16 }} />}
      <Outlet />
    </>
  );
}
