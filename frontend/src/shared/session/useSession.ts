import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type SessionState } from './sessionStore';

/** Subscribes a component to the session; pass a selector returning a primitive or a stable object. */
export function useSession<T>(selector: (state: SessionState) => T): T {
  return useSyncExternalStore(subscribeSession, () => selector(getSession()));
}
