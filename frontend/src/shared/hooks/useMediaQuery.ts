import { useCallback, useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** docs/specification.md section 9: the menubar turns into the mobile menu at 960px. */
export const MOBILE_MENU_QUERY = '(max-width: 960px)';

export function useIsMobileMenu(): boolean {
  return useMediaQuery(MOBILE_MENU_QUERY);
}
