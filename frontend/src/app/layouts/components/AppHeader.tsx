import { CloseOutlined, MenuOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, type MenuProps } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigation } from 'react-router';
import { AppLogo } from '@/shared/components/AppLogo';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import styles from './AppHeader.module.css';

// Loaded when the menu button is first pressed: wide screens never need the drawer.
const MobileMenu = lazy(async () => ({ default: (await import('./MobileMenu')).MobileMenu }));

interface Props {
  items: MenuProps['items'];
  selectedKey: string | undefined;
  /** Right side of the bar (language, company, user menu). */
  tools: ReactNode;
  /** Shown next to the product name (e.g. the supplier's parent vendor). */
  brandExtra?: ReactNode;
  /** Shown in the bar on wide screens and at the top of the mobile menu (e.g. a search box). */
  search?: ReactNode;
  /** Shown in the bar on wide screens and at the foot of the mobile menu (e.g. the language switch). */
  menuTools?: ReactNode;
}

/**
 * The top bar of every layout: brand, menubar and tools. At 960px and below the menubar becomes a
 * menu button that opens and closes a drawer (SPEC.md sections 2 and 9).
 */
export function AppHeader({ items, selectedKey, tools, brandExtra, search, menuTools }: Props) {
  const { t } = useTranslation();
  const mobile = useIsMobileMenu();
  const location = useLocation();
  const navigation = useNavigation();
  // The mobile menu is open for the page it was opened on: any navigation closes it, and so does
  // widening the window past the breakpoint.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = mobile && openOn === location.key;
  const [menuUsed, setMenuUsed] = useState(false);
  const setOpen = (next: boolean) => {
    if (next) setMenuUsed(true);
    setOpenOn(next ? location.key : null);
  };

  const selectedKeys = selectedKey ? [selectedKey] : [];

  return (
    <Layout.Header className={styles.header} data-testid="app-header">
      {navigation.state === 'loading' ? <div className={styles.progress} role="progressbar" aria-label={t('states.loading')} /> : null}
      {mobile ? (
        <Button
          type="text"
          icon={open ? <CloseOutlined /> : <MenuOutlined />}
          onClick={() => setOpen(!open)}
          aria-label={open ? t('menu.close') : t('menu.open')}
          aria-expanded={open}
          data-testid="mobile-menu-button"
        />
      ) : null}
      <Link to="/" className={styles.brand} aria-label={t('appName')}>
        <AppLogo />
        <span className={styles.brandName}>{t('appName')}</span>
      </Link>
      {brandExtra ? <span className={styles.brandExtra}>{brandExtra}</span> : null}
      {mobile ? (
        <div className={styles.spacer} />
      ) : (
        <Menu
          mode="horizontal"
          items={items}
          selectedKeys={selectedKeys}
          className={styles.menu}
          data-testid="desktop-menu"
        />
      )}
      {!mobile && search ? <div className={styles.search}>{search}</div> : null}
      <div className={styles.tools}>
        {!mobile ? menuTools : null}
        {tools}
      </div>
      {menuUsed ? (
        <Suspense>
          <MobileMenu
            open={open}
            onClose={() => setOpen(false)}
            items={items}
            selectedKeys={selectedKeys}
            search={search}
            menuTools={menuTools}
            mobile={mobile}
          />
        </Suspense>
      ) : null}
    </Layout.Header>
  );
}
