/**
 * A pop-up menu (WAI-ARIA menu pattern) for the menubar and the menu buttons of the top bar: entries
 * are links or actions, groups open a nested menu. Plain elements styled with the theme's CSS
 * variables: Ant Design's Menu and Dropdown brought about 30 KB gzip into every signed-in first page
 * (docs/performance.md).
 *
 * Keys: Up and Down move (wrapping), Home and End go to the ends, Right or Enter opens a group,
 * Left or Escape closes a nested menu, Escape closes the menu and returns to its trigger, Tab leaves it.
 * Right and Left on an entry without a nested menu are passed to the menubar (the next or previous menu).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import styles from './menu.module.css';

export interface MenuEntry {
  key: string;
  label: string;
  icon?: ReactNode;
  /** A link entry: navigates there. */
  to?: string;
  /** An action entry. */
  onSelect?: () => void;
  children?: MenuNode[];
  disabled?: boolean;
  danger?: boolean;
  testId?: string;
}

export interface MenuDivider {
  key: string;
  divider: true;
}

export type MenuNode = MenuEntry | MenuDivider;

export function isDivider(node: MenuNode): node is MenuDivider {
  return 'divider' in node;
}

/** Whether the entry, or an entry nested in it, is the one for the current page. */
export function containsKey(node: MenuNode, key: string | undefined): boolean {
  if (!key || isDivider(node)) return false;
  return node.key === key || (node.children ?? []).some((child) => containsKey(child, key));
}

export type FocusTarget = 'first' | 'last' | null;

interface Props {
  entries: MenuNode[];
  /** The menu's accessible name (its trigger's text). */
  label: string;
  id?: string;
  /** The entry to focus when the menu opens; null leaves the focus where it is (opened by hovering). */
  focusOn: FocusTarget;
  /** Closes this menu; `returnFocus` puts the focus back on its trigger (Escape, Left in a nested menu). */
  onClose: (returnFocus: boolean) => void;
  /** An entry was chosen or the focus left: every menu of the tree closes. */
  onDone: () => void;
  /** Right and Left on an entry without a nested menu (the menubar moves to the next or previous menu). */
  onNext?: () => void;
  onPrevious?: () => void;
  selectedKey?: string;
  /** Where the menu opens: under its trigger from its start or end edge, or beside an entry (nested). */
  placement: 'start' | 'end' | 'nested-end' | 'nested-start';
  testId?: string;
}

export function MenuList({ entries, label, id, focusOn, onClose, onDone, onNext, onPrevious, selectedKey, placement, testId }: Props) {
  const items = useRef<(HTMLElement | null)[]>([]);
  const [openKey, setOpenKey] = useState<string | null>(null);
  const [childFocus, setChildFocus] = useState<FocusTarget>(null);
  const enabled = entries.map((node, index) => (!isDivider(node) && !node.disabled ? index : -1)).filter((index) => index >= 0);

  useEffect(() => {
    if (focusOn === null) return;
    const index = focusOn === 'first' ? enabled[0] : enabled[enabled.length - 1];
    if (index !== undefined) items.current[index]?.focus();
    // Only when the menu opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const focusAt = (index: number | undefined) => {
    if (index !== undefined) items.current[index]?.focus();
  };
  const move = (from: number, step: 1 | -1) => {
    const at = enabled.indexOf(from);
    const next = enabled[(at + step + enabled.length) % enabled.length];
    focusAt(next);
  };
  const openChild = (key: string, focus: FocusTarget) => {
    setOpenKey(key);
    setChildFocus(focus);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number, entry: MenuEntry) => {
    const hasChildren = Boolean(entry.children?.length);
    const nested = placement === 'nested-end' || placement === 'nested-start';
    // A nested menu on the start side opens with Left and closes with Right.
    const inward = placement === 'nested-start' || placement === 'end' ? 'ArrowLeft' : 'ArrowRight';
    const outward = inward === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        move(index, 1);
        break;
      case 'ArrowUp':
        move(index, -1);
        break;
      case 'Home':
        focusAt(enabled[0]);
        break;
      case 'End':
        focusAt(enabled[enabled.length - 1]);
        break;
      case 'Escape':
        onClose(true);
        break;
      case 'Tab':
        handled = false;
        onDone();
        break;
      case 'Enter':
      case ' ':
        if (hasChildren) openChild(entry.key, 'first');
        else if (event.key === ' ' || !entry.to) event.currentTarget.click();
        else handled = false; // a link follows itself on Enter
        break;
      default:
        if (event.key === inward && hasChildren) openChild(entry.key, 'first');
        else if (event.key === outward && nested) onClose(true);
        else if (event.key === 'ArrowRight' && onNext) onNext();
        else if (event.key === 'ArrowLeft' && onPrevious) onPrevious();
        else handled = false;
    }
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const childPlacement = placement === 'end' || placement === 'nested-start' ? 'nested-start' : 'nested-end';

  return (
    <ul role="menu" aria-label={label} id={id} className={`${styles.menu} ${styles[placement]}`} data-testid={testId}>
      {entries.map((node, index) => {
        if (isDivider(node)) return <li key={node.key} role="separator" className={styles.separator} />;
        const hasChildren = Boolean(node.children?.length);
        const open = openKey === node.key;
        const className = [
          styles.item,
          node.danger ? styles.danger : '',
          containsKey(node, selectedKey) ? styles.selected : '',
        ].join(' ');
        const content = (
          <>
            {node.icon ? (
              <span className={styles.icon} aria-hidden>
                {node.icon}
              </span>
            ) : null}
            <span className={styles.label}>{node.label}</span>
            {hasChildren ? <span className={styles.chevron} aria-hidden /> : null}
          </>
        );
        const common = {
          ref: (element: HTMLElement | null) => {
            items.current[index] = element;
          },
          role: 'menuitem',
          tabIndex: -1,
          className,
          'data-testid': node.testId,
          onKeyDown: (event: KeyboardEvent<HTMLElement>) => onKeyDown(event, index, node),
          onPointerEnter: (event: React.PointerEvent) => {
            if (event.pointerType !== 'mouse') return;
            // Hovering an entry opens its nested menu and closes a sibling's.
            if (hasChildren && !node.disabled) openChild(node.key, null);
            else if (openKey !== null) setOpenKey(null);
          },
        } as const;
        return (
          <li key={node.key} role="none" className={styles.entry}>
            {node.to && !node.disabled && !hasChildren ? (
              <Link {...common} to={node.to} aria-current={node.key === selectedKey ? 'page' : undefined} onClick={onDone}>
                {content}
              </Link>
            ) : (
              <button
                {...common}
                type="button"
                aria-disabled={node.disabled || undefined}
                aria-haspopup={hasChildren ? 'menu' : undefined}
                aria-expanded={hasChildren ? open : undefined}
                onClick={() => {
                  if (node.disabled) return;
                  // A nested menu opens on a click (the mouse has usually opened it on the way already).
                  if (hasChildren) {
                    if (!open) openChild(node.key, null);
                    return;
                  }
                  onDone();
                  node.onSelect?.();
                }}
              >
                {content}
              </button>
            )}
            {hasChildren && open ? (
              <MenuList
                entries={node.children ?? []}
                label={node.label}
                focusOn={childFocus}
                placement={childPlacement}
                selectedKey={selectedKey}
                onClose={(returnFocus) => {
                  setOpenKey(null);
                  if (returnFocus) items.current[index]?.focus();
                }}
                onDone={onDone}
                onNext={onNext}
                onPrevious={onPrevious}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
