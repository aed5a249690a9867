import { useEffect, type RefObject } from 'react';

/**
 * Closes an open menu when the pointer goes down outside `root` or the focus moves out of it
 * (to another element of the page; a focus lost to nothing, e.g. the window, keeps it open).
 */
export function useDismiss(root: RefObject<HTMLElement | null>, open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) close();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [root, open, close]);
}
