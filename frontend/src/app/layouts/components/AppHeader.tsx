import { CloseOutlined, MenuOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigation } from 'react-router';
import { AppLogo } from '@/shared/components/AppLogo';
import { MenuBar } from '@/shared/components/menu/MenuBar';
import type { MenuEntry } from '@/shared/components/menu/MenuList';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import styles from './AppHeader.module.css';
import { paths } from '@/shared/routing/paths';

// Loaded when the menu button is first pressed: wide screens never need the drawer.
const MobileMenu = lazy(async () => ({ default: (await import('./MobileMenu')).MobileMenu }));

interface Props {
  entries: MenuEntry[];
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
 * menu button that opens and closes a drawer (docs/specification.md sections 2 and 9).
 */
export function AppHeader({ entries, selectedKey, tools, brandExtra, search, menuTools }: Props) {
  const { t } = useTranslation(['common', 'nav']);
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

  return (
    <header className={styles.header} data-testid="app-header">
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
      <Link to={paths.home()} className={styles.brand} aria-label={t('appName')}>
        <AppLogo />
        <span className={styles.brandName}>{t('appName')}</span>
      </Link>
      {brandExtra ? <span className={styles.brandExtra}>{brandExtra}</span> : null}
      {mobile ? (
        <div className={styles.spacer} />
      ) : (
        <MenuBar entries={entries} label={t('nav:menu.main')} selectedKey={selectedKey} className={styles.menu} testId="desktop-menu" />
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
            entries={entries}
            selectedKey={selectedKey}
            search={search}
            menuTools={menuTools}
            mobile={mobile}
          />
        </Suspense>
      ) : null}
    </header>
  );
}
