import { useMediaQuery } from '@/shared/hooks/useMediaQuery';

/** Below Ant Design's `sm` breakpoint (576px): pages lay tables and forms out for a phone's width (a list
 * hides columns with `hidden: phone` and says what they would have in a PhoneLine). */
export const PHONE_QUERY = '(max-width: 575px)';

export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
