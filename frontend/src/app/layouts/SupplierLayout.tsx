import { CloudDownloadOutlined, FileTextOutlined, ShoppingOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useMatches, useSearchParams } from 'react-router';
import { LanguageSwitcher } from '@/shared/components/LanguageSwitcher';
import { OfflineBadge } from '@/shared/components/OfflineBadge';
import { useInstallPrompt } from '@/shared/hooks/useInstallPrompt';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { resolveParentVendor, supplierPath, supplierRedirect } from '@/shared/session/parentVendor';
import { setParentVendorId } from '@/shared/session/sessionStore';
import { parentVendorName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { UserMenu } from './components/UserMenu';
import { selectedMenuKey, toMenuEntries, type NavNode } from './navigation';
import { ShellLayout } from './ShellLayout';

/** Supplier users: their raw materials and orders, usable offline and installable as an app. */
export function SupplierLayout() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const matches = useMatches();
  const [query] = useSearchParams();
  const user = useSession((s) => s.userInfo);
  const stored = useSession((s) => s.parentVendorId);
  const mobile = useIsMobileMenu();
  const { canInstall, install } = useInstallPrompt();

  const routeParam = matches[matches.length - 1]?.params.parentVendorId;
  const resolved = resolveParentVendor({ user, routeParam, queryPv: query.get('pv'), stored });

  // Remember the vendor once it is known from the user, the route or the query.
  useEffect(() => {
    if (resolved.id && resolved.source !== 'stored' && resolved.id !== stored) setParentVendorId(resolved.id);
  }, [resolved.id, resolved.source, stored]);

  const menu: NavNode[] = useMemo(
    () => [
      { label: 'menu.rawMaterials', to: supplierPath('raw-materials', resolved), icon: <FileTextOutlined />, testId: 'supplier-menu-raw-materials' },
      {
        label: 'menu.orders',
        to: supplierPath('orders', resolved),
        icon: <ShoppingOutlined />,
        disabled: !resolved.id,
        testId: 'supplier-menu-orders',
      },
    ],
    [resolved.id, resolved.source], // eslint-disable-line react-hooks/exhaustive-deps -- resolved is rebuilt every render
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the language
  const entries = useMemo(() => toMenuEntries(menu, t, false), [menu, t, i18n.language]);

  const redirect = supplierRedirect(pathname, resolved);
  if (redirect) return <Navigate to={redirect} replace />;

  const vendor = parentVendorName(user?.parent_vendor, i18n.language);

  return (
    <ShellLayout
      kind="supplier"
      entries={entries}
      selectedKey={selectedMenuKey(menu, pathname)}
      brandExtra={vendor || undefined}
      tools={
        <>
          <OfflineBadge />
          {canInstall ? (
            <Tooltip title={t('install.hint')}>
              <Button icon={<CloudDownloadOutlined />} onClick={() => void install()} data-testid="install-app">
                {mobile ? null : t('install.button')}
              </Button>
            </Tooltip>
          ) : null}
          <LanguageSwitcher />
          <UserMenu variant="simple" />
        </>
      }
    />
  );
}
