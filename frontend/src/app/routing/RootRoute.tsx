import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { loginUrl } from '@/api/publicRoutes';
import { metaOf, requiresAuth } from '@/shared/routing/routeMeta';
import { useSession } from '@/shared/session/useSession';

/**
 * Above every route: sets the document title from the route meta (translated, follows the language),
 * marks the location drawn (<html data-location>) and sends visits to protected routes without a session to the login page, which brings the user back.
 */
export function RootRoute() {
  const { t, i18n } = useTranslation();
  const matches = useMatches();
  const location = useLocation();
  const signedIn = useSession((s) => Boolean(s.accessToken));
  const meta = metaOf(matches);
  const title = meta ? t(meta.title) : '';

  // While signed out (the login page), fetch the layouts' code in the background so the first page
  // after sign-in does not wait for it.
  useEffect(() => {
    if (signedIn) return undefined;
    const timer = window.setTimeout(() => {
      void import('../layouts/LayoutSwitch');
      void import('../layouts/DefaultLayout');
    }, 1500);
    return () => window.clearTimeout(timer);
  }, [signedIn]);

  // The location the app has drawn, on <html data-location>: a navigation inside the app changes the
  // address at once but draws the new route only once its code has loaded; tests wait for this.
  useEffect(() => {
    document.documentElement.dataset.location = `${location.pathname}${location.search}`;
  }, [location.pathname, location.search]);

  useEffect(() => {
    const app = t('appName');
    document.title = title ? `${title} | ${app}` : app;
  }, [title, t, i18n.language]);

  if (requiresAuth(matches) && !signedIn) {
    return <Navigate to={loginUrl(`${location.pathname}${location.search}`)} replace />;
  }
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
