import { Outlet, useMatches } from 'react-router';
import { isStaffOnly, servesUserType } from '@/shared/routing/routeMeta';
import { userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { lazy, Suspense } from 'react';

const ForbiddenPage = lazy(async () => ({ default: (await import('./ForbiddenPage')).ForbiddenPage }));

/**
 * The page area of a layout. Each page serves some kinds of user (route meta `userTypes`): a supplier
 * who types an internal address gets the forbidden page, not the internal page (the API answers would
 * be scoped, but the page is not theirs). The /test/* pages are for staff (is_staff) only.
 */
export function RouteOutlet() {
  const matches = useMatches();
  const isStaff = useSession((s) => Boolean(s.userInfo?.is_staff));
  const userType = useSession((s) => (s.userInfo ? userTypeOf(s.userInfo) : null));
  if ((isStaffOnly(matches) && !isStaff) || (userType !== null && !servesUserType(matches, userType))) {
    return (
      <Suspense>
        <ForbiddenPage />
      </Suspense>
    );
  }
  return <Outlet />;
}
