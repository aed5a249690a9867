import { useSession } from './useSession';

/** The one permission for every price and amount (apps/common/prices.py; docs/tenancy.md). */
export const PRICE_PERMISSION = 'products.see_prices';

/**
 * True when the user's roles in the current tenant let them see prices, or while the permission list is
 * not loaded (as every permission hook of the web app: the server decides; without the permission the
 * API leaves the price fields out, so a page hides those columns and fields).
 */
export function useSeesPrices(): boolean {
  return useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes(PRICE_PERMISSION);
  });
}
