import { Drawer, Menu, type MenuProps } from 'antd';
import { Link } from 'react-router';
import { isDivider, type MenuNode } from '@/shared/components/menu/MenuList';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './AppHeader.module.css';

interface Props {
  open: boolean;
  onClose: () => void;
  entries: MenuNode[];
  selectedKey: string | undefined;
  search?: ReactNode;
  /** The menubar's tools (the language switch), at the foot of the menu on a narrow screen. */
  menuTools?: ReactNode;
  mobile: boolean;
}

type MenuItem = Required<MenuProps>['items'][number];

/** The entries as Ant Design's inline menu items: groups open in place, links are links. */
function toItems(entries: MenuNode[]): MenuItem[] {
  return entries.map((entry): MenuItem => {
    if (isDivider(entry)) return { type: 'divider', key: entry.key };
    if (entry.children?.length) return { key: entry.key, label: entry.label, icon: entry.icon, children: toItems(entry.children) };
    return {
      key: entry.key,
      icon: entry.icon,
      disabled: entry.disabled,
      label:
        entry.to && !entry.disabled ? (
          <Link to={entry.to} data-testid={entry.testId}>
            {entry.label}
          </Link>
        ) : (
          <span data-testid={entry.testId}>{entry.label}</span>
        ),
    };
  });
}

/** The menu drawer of a narrow screen (AppHeader; loaded when first opened). */
export function MobileMenu({ open, onClose, entries, selectedKey, search, menuTools, mobile }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      title={t('appName')}
      size={300}
      className={styles.drawer}
      data-testid="mobile-menu"
    >
      {search ? <div className={styles.drawerSearch}>{search}</div> : null}
      <Menu mode="inline" items={toItems(entries)} selectedKeys={selectedKey ? [selectedKey] : []} className={styles.drawerMenu} />
      {mobile && menuTools ? (
        <div className={styles.drawerTools} data-testid="mobile-menu-tools">
          {menuTools}
        </div>
      ) : null}
    </Drawer>
  );
}
