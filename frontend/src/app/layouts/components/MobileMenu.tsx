import { Drawer, Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './AppHeader.module.css';

interface Props {
  open: boolean;
  onClose: () => void;
  items: MenuProps['items'];
  selectedKeys: string[];
  search?: ReactNode;
  /** The menubar's tools (the language switch), at the foot of the menu on a narrow screen. */
  menuTools?: ReactNode;
  mobile: boolean;
}

/** The menu drawer of a narrow screen (AppHeader; loaded when first opened). */
export function MobileMenu({ open, onClose, items, selectedKeys, search, menuTools, mobile }: Props) {
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
      <Menu mode="inline" items={items} selectedKeys={selectedKeys} className={styles.drawerMenu} />
      {mobile && menuTools ? (
        <div className={styles.drawerTools} data-testid="mobile-menu-tools">
          {menuTools}
        </div>
      ) : null}
    </Drawer>
  );
}
