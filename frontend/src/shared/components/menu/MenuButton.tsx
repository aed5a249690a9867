import { useCallback, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { MenuList, type FocusTarget, type MenuNode } from './MenuList';
import styles from './menu.module.css';
import { useDismiss } from './useDismiss';

interface Props {
  entries: MenuNode[];
  /** The button's accessible name, also the menu's. */
  label: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  /** The menu's edge under the button: `end` for a button at the right of the bar. */
  align?: 'start' | 'end';
}

/**
 * A button that opens a menu (WAI-ARIA menu button): a click, Enter, Space or Down opens it on its first
 * entry, Up on its last; Escape closes it and returns to the button.
 */
export function MenuButton({ entries, label, children, className, testId, align = 'start' }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [focusOn, setFocusOn] = useState<FocusTarget | undefined>(undefined);
  const open = focusOn !== undefined;
  const close = useCallback(() => setFocusOn(undefined), []);
  useDismiss(root, open, close);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') setFocusOn('first');
    else if (event.key === 'ArrowUp') setFocusOn('last');
    else return;
    event.preventDefault();
  };

  return (
    <div ref={root} className={styles.anchor}>
      <button
        ref={button}
        type="button"
        className={`${styles.trigger} ${className ?? ''}`}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid={testId}
        onClick={() => (open ? close() : setFocusOn('first'))}
        onKeyDown={onKeyDown}
      >
        {children}
      </button>
      {open ? (
        <MenuList
          id={menuId}
          entries={entries}
          label={label}
          focusOn={focusOn}
          placement={align}
          onClose={(returnFocus) => {
            close();
            if (returnFocus) button.current?.focus();
          }}
          onDone={() => {
            // An entry chosen from the keyboard: the focus goes back to the button, not to the page's start.
            if (root.current?.contains(document.activeElement)) button.current?.focus();
            close();
          }}
        />
      ) : null}
    </div>
  );
}
