import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * The "select all" checkbox of a table's selection column, safe to draw twice. A table that scrolls
 * sideways draws every column title a second time in a hidden row that measures the columns
 * (`aria-hidden`); a checkbox there is focusable inside hidden content (axe: aria-hidden-focus), and a
 * keyboard user would tab into an invisible box. The copy in that row is made inert: not focusable, not
 * clickable, not read.
 *
 * Use as `rowSelection={{ columnTitle: selectionTitle, ... }}`.
 */
function SelectionTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const span = ref.current;
    if (span?.closest('[aria-hidden="true"]')) span.setAttribute('inert', '');
  });
  return <span ref={ref}>{children}</span>;
}

export function selectionTitle(checkbox: ReactNode): ReactNode {
  return <SelectionTitle>{checkbox}</SelectionTitle>;
}
