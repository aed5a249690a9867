import { useMediaQuery } from '@/shared/hooks/useMediaQuery';

/** Below Ant Design's `sm` breakpoint (576px): the sales pages lay tables out for a phone's width. */
export const PHONE_QUERY = '(max-width: 575px)';

export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
