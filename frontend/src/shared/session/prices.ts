import { useSession } from './useSession';

/** The one permission for every price and amount (apps/common/prices.py; docs/tenancy.md). */
export const PRICE_PERMISSION = 'products.see_prices';

/**
 * True when the user's roles in the current tenant let them see prices. Without it the API leaves the
 * price fields out, so pages hide those columns and fields (until the permission list is loaded too).
 */
export function useSeesPrices(): boolean {
  return useSession((s) => s.userInfo?.permissions?.includes(PRICE_PERMISSION) ?? false);
}
