/**
 * The walks of every route (pictures.spec.ts with axe and the language check, chinese-walk.spec.ts,
 * offline-walk.spec.ts) visit the route lists of routes.ts. A page added to the route table
 * (src/shared/routing/paths.ts) and not to those lists would never be drawn, audited or read: this
 * fails until it is walked, or named below with the reason it cannot be.
 */
import { expect, test } from '@playwright/test';
import { routePatterns } from '../src/shared/routing/paths';
import { INTERNAL_ROUTES, SIGNED_OUT_ROUTES, SUPPLIER_ROUTES, WAREHOUSE_ROUTES } from './routes';

/** Patterns not walked, each with its reason. */
const NOT_WALKED: Record<string, string> = {};

/** `/sales/orders/:salesOrder/edit` and `/sales/orders/:id/edit` are the same route. */
const shape = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, ':x');

test('every route of the route table is walked, or says why not', () => {
  const walked = new Set([...INTERNAL_ROUTES, ...WAREHOUSE_ROUTES, ...SUPPLIER_ROUTES, ...SIGNED_OUT_ROUTES].map(shape));
  const missing = Object.values(routePatterns)
    .map(shape)
    .filter((pattern) => !walked.has(pattern) && !(pattern in NOT_WALKED));
  expect(missing, 'routes no walk visits: add them to e2e/routes.ts').toEqual([]);
  const stale = Object.keys(NOT_WALKED).filter((pattern) => walked.has(pattern));
  expect(stale, 'walked routes still listed as not walked').toEqual([]);
});
