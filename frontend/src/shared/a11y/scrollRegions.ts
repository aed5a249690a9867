/**
 * A table that scrolls sideways (a document's lines on a phone) must be reachable by keyboard: without a
 * link or a button in its rows, nothing inside it can take the focus, so its hidden columns could not be
 * scrolled into view without a pointer (axe: scrollable-region-focusable, serious). Each table's
 * scrolling frame that really overflows takes the focus (tabindex 0, then the arrow keys scroll it); one
 * that fits again gives it back, so a table that fits on a desktop adds no tab stop.
 *
 * One observer for the whole app (main.tsx): every table of every page, whoever wrote it.
 */
const FRAMES = '.p-table-content, .p-table-body';
const MARK = 'data-scroll-region';

/** Gives each overflowing table frame under `root` the focus, and takes it back from those that fit. */
export function markScrollRegions(root: ParentNode): void {
  for (const frame of Array.from(root.querySelectorAll<HTMLElement>(FRAMES))) {
    const overflows = frame.scrollWidth > frame.clientWidth + 1 || frame.scrollHeight > frame.clientHeight + 1;
    if (overflows && !frame.hasAttribute('tabindex')) {
      frame.setAttribute('tabindex', '0');
      frame.setAttribute(MARK, '');
    } else if (!overflows && frame.hasAttribute(MARK)) {
      frame.removeAttribute('tabindex');
      frame.removeAttribute(MARK);
    }
  }
}

/** Keeps the table frames under `root` marked as the pages change and the window is resized; returns a stop. */
export function keepScrollRegionsReachable(root: HTMLElement = document.body): () => void {
  let pending = 0;
  const schedule = (): void => {
    if (pending) return;
    pending = window.requestAnimationFrame(() => {
      pending = 0;
      markScrollRegions(root);
    });
  };
  const observer = new MutationObserver(schedule);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  window.addEventListener('resize', schedule);
  schedule();
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
    if (pending) window.cancelAnimationFrame(pending);
  };
}
