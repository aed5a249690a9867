import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { containsKey, isDivider, MenuList, type FocusTarget, type MenuEntry, type MenuNode } from './MenuList';
import styles from './menu.module.css';
import { useDismiss } from './useDismiss';

interface Props {
  entries: MenuNode[];
  /** The menubar's accessible name. */
  label: string;
  /** The entry of the current page: it and the menu holding it are marked. */
  selectedKey?: string;
  className?: string;
  testId?: string;
}

interface OpenMenu {
  index: number;
  focusOn: FocusTarget;
  /** Opened by the mouse passing over it: a click then keeps it open instead of closing it. */
  hover: boolean;
  /** The location it was opened on: a navigation closes it (a link chosen, the browser's back button). */
  on: string;
}

/** Below this width a menubar of more than four menus shows its icons only (menu.module.css). */
const ICONS_ONLY_QUERY = '(max-width: 1180px)';

/** How long a menu opened by hovering stays open after the pointer has left it. */
const HOVER_CLOSE_MS = 150;

/**
 * The top bar's menubar (WAI-ARIA menubar): one Tab stop; Left and Right move between its menus (the
 * open menu follows), Down, Enter or Space opens a menu on its first entry, Up on its last, Home and
 * End go to the ends, Escape closes. A menu opens on a click, or by hovering as a desktop menubar does.
 */
export function MenuBar({ entries, label, selectedKey, className, testId }: Props) {
  const root = useRef<HTMLElement>(null);
  const items = useRef<(HTMLElement | null)[]>([]);
  const closeTimer = useRef<number | undefined>(undefined);
  const top = entries.filter((node): node is MenuEntry => !isDivider(node));
  const narrow = useMediaQuery(ICONS_ONLY_QUERY);
  const iconsOnly = narrow && top.length > 4;
  const [active, setActive] = useState(0);
  const { key: locationKey } = useLocation();
  const [state, setState] = useState<OpenMenu | null>(null);
  const open = state?.on === locationKey ? state : null;
  const setOpen = (next: Omit<OpenMenu, 'on'> | null) => setState(next && { ...next, on: locationKey });
  const close = useCallback(() => setState(null), []);
  useDismiss(root, open !== null, close);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const cancelClose = () => window.clearTimeout(closeTimer.current);
  const focusTop = (index: number) => {
    setActive(index);
    items.current[index]?.focus();
  };
  const hasMenu = (index: number) => Boolean(top[index]?.children?.length);

  /** Moves to the next or previous menu; an open menu moves along, opened on its first entry. */
  const step = (from: number, delta: 1 | -1, openNext: boolean) => {
    const next = (from + delta + top.length) % top.length;
    focusTop(next);
    setOpen(openNext && hasMenu(next) ? { index: next, focusOn: 'first', hover: false } : null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    let handled = true;
    switch (event.key) {
      case 'ArrowRight':
        step(index, 1, open !== null);
        break;
      case 'ArrowLeft':
        step(index, -1, open !== null);
        break;
      case 'Home':
        focusTop(0);
        break;
      case 'End':
        focusTop(top.length - 1);
        break;
      case 'ArrowDown':
      case 'Enter':
      case ' ':
        if (hasMenu(index)) setOpen({ index, focusOn: 'first', hover: false });
        else if (event.key === ' ') event.currentTarget.click();
        else handled = false; // Enter follows a link
        break;
      case 'ArrowUp':
        if (hasMenu(index)) setOpen({ index, focusOn: 'last', hover: false });
        break;
      case 'Escape':
        setOpen(null);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };

  const onPointerEnter = (event: PointerEvent, index: number) => {
    if (event.pointerType !== 'mouse') return;
    cancelClose();
    if (!hasMenu(index)) setOpen(null);
    else if (open?.index !== index) setOpen({ index, focusOn: null, hover: true });
  };
  const onPointerLeave = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    cancelClose();
    closeTimer.current = window.setTimeout(() => setState((current) => (current?.hover ? null : current)), HOVER_CLOSE_MS);
  };

  return (
    <nav ref={root} aria-label={label} className={`${styles.bar} ${className ?? ''}`} data-testid={testId}>
      <ul role="menubar" aria-label={label} className={styles.barList}>
        {top.map((entry, index) => {
          const isOpen = open?.index === index;
          const className = `${styles.barItem} ${containsKey(entry, selectedKey) ? styles.barSelected : ''}`;
          const content = (
            <>
              {entry.icon ? (
                <span className={styles.icon} aria-hidden>
                  {entry.icon}
                </span>
              ) : null}
              {/* Icons only: the name stays for assistive technology (styles/global.css). */}
              <span className={iconsOnly && entry.icon ? 'sr-only' : undefined}>{entry.label}</span>
            </>
          );
          const common = {
            ref: (element: HTMLElement | null) => {
              items.current[index] = element;
            },
            role: 'menuitem',
            tabIndex: index === active ? 0 : -1,
            className,
            title: iconsOnly && entry.icon ? entry.label : undefined,
            'data-testid': entry.testId,
            onKeyDown: (event: KeyboardEvent<HTMLElement>) => onKeyDown(event, index),
            onFocus: () => setActive(index),
          } as const;
          return (
            <li
              key={entry.key}
              role="none"
              className={styles.anchor}
              onPointerEnter={(event) => onPointerEnter(event, index)}
              onPointerLeave={onPointerLeave}
            >
              {hasMenu(index) ? (
                <button
                  {...common}
                  type="button"
                  aria-haspopup="menu"
                  aria-expanded={isOpen}
                  onClick={() => setOpen(isOpen && !open.hover ? null : { index, focusOn: null, hover: false })}
                >
                  {content}
                </button>
              ) : entry.disabled || !entry.to ? (
                <span {...common} aria-disabled>
                  {content}
                </span>
              ) : (
                <Link {...common} to={entry.to} aria-current={entry.key === selectedKey ? 'page' : undefined}>
                  {content}
                </Link>
              )}
              {isOpen ? (
                <MenuList
                  key={open.focusOn ?? 'hover'}
                  entries={entry.children ?? []}
                  label={entry.label}
                  focusOn={open.focusOn}
                  placement="start"
                  selectedKey={selectedKey}
                  onClose={(returnFocus) => {
                    setOpen(null);
                    if (returnFocus) focusTop(index);
                  }}
                  onDone={close}
                  onNext={() => step(index, 1, true)}
                  onPrevious={() => step(index, -1, true)}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
