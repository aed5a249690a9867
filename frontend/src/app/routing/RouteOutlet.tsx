import { Outlet, useMatches } from 'react-router';
import { isStaffOnly } from '@/shared/routing/routeMeta';
import { useSession } from '@/shared/session/useSession';
import { lazy, Suspense } from 'react';

const ForbiddenPage = lazy(async () => ({ default: (await import('./ForbiddenPage')).ForbiddenPage }));

/** The page area of a layout: the /test/* pages are for staff (is_staff) only. */
export function RouteOutlet() {
  const matches = useMatches();
  const isStaff = useSession((s) => Boolean(s.userInfo?.is_staff));
  if (isStaffOnly(matches) && !isStaff) {
    return (
      <Suspense>
        <ForbiddenPage />
      </Suspense>
    );
  }
  return <Outlet />;
}
