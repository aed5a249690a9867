/**
 * The namespaces a first page needs (the login page, the layouts' header and menus, the home page, the
 * tenant selector and the theme settings, the error texts): bundled per language in bundles/<lang>.ts
 * and loaded before the first render. Every other namespace is in bundles/<lang>-rest.ts, loaded with
 * the first route that is neither the login nor the home page (src/app/router.tsx), or by i18next when a
 * component asks for a namespace that is not there yet (the component suspends; it never shows raw keys).
 * Keep this list and the two glob patterns of each bundle in step (i18n.test.ts checks them).
 */
export const FIRST_PAGE_NAMESPACES = ['common', 'nav', 'auth', 'errors', 'home', 'tenant', 'theme'] as const;
