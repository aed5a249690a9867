import {
  AccountBookOutlined,
  BankOutlined,
  BgColorsOutlined,
  DownOutlined,
  LogoutOutlined,
  SwapOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signOut } from '@/features/auth/api/session';
import { MenuButton } from '@/shared/components/menu/MenuButton';
import type { MenuNode } from '@/shared/components/menu/MenuList';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { displayName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import styles from './UserMenu.module.css';
import { paths } from '@/shared/routing/paths';

// Loaded when first opened: most visits never open Settings or Switch Company.
const ThemeConfigurator = lazy(async () => ({ default: (await import('@/shared/theme/ThemeConfigurator')).ThemeConfigurator }));
const TenantSwitchDialog = lazy(async () => ({ default: (await import('./TenantSwitchDialog')).TenantSwitchDialog }));

interface Props {
  /** The default layout (internal users) adds Company settings, User Management and Switch Company. */
  variant: 'full' | 'simple';
}

/**
 * The user menu: Profile, Settings (theme drawer), [Company settings, User Management, Switch Company],
 * Sign Out. The bracketed items are the default layout's (internal users).
 */
export function UserMenu({ variant }: Props) {
  const { t } = useTranslation('nav');
  const mobile = useIsMobileMenu();
  const user = useSession((s) => s.userInfo);
  const username = useSession((s) => s.username);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsUsed, setSettingsUsed] = useState(false);
  const [companyOpen, setCompanyOpen] = useState(false);
  const [companyUsed, setCompanyUsed] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const mayAccounting = useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes('accounting.manage') || list.includes('accounting.view_syncentry');
  });

  const entries: MenuNode[] = [
    { key: 'profile', icon: <UserOutlined />, label: t('user.profile'), to: paths.profile() },
    {
      key: 'settings',
      icon: <BgColorsOutlined />,
      label: t('user.settings'),
      onSelect: () => {
        setSettingsUsed(true);
        setSettingsOpen(true);
      },
    },
    ...(variant === 'full'
      ? [
          { key: 'company-settings', icon: <BankOutlined />, label: t('user.companySettings'), to: paths.companySettings() },
          ...(mayAccounting ? [{ key: 'accounting', icon: <AccountBookOutlined />, label: t('user.accounting'), to: paths.accounting() }] : []),
          {
            key: 'user-management',
            icon: <TeamOutlined />,
            label: t('user.userManagement'),
            children: [
              { key: 'user-list', label: t('user.userList'), to: paths.users() },
              { key: 'user-create', label: t('user.createUser'), to: paths.userCreate() },
              { key: 'user-departments', label: t('user.departments'), to: paths.departments() },
              { key: 'user-permissions', label: t('user.permissions'), to: paths.permissions() },
            ],
          },
          {
            key: 'switch-company',
            icon: <SwapOutlined />,
            label: t('user.switchCompany'),
            onSelect: () => {
              setCompanyUsed(true);
              setCompanyOpen(true);
            },
          },
        ]
      : []),
    { key: 'divider', divider: true },
    {
      key: 'sign-out',
      icon: <LogoutOutlined />,
      label: t('user.signOut'),
      danger: true,
      disabled: signingOut,
      onSelect: () => {
        setSigningOut(true);
        void signOut();
      },
    },
  ];

  const name = displayName(user) || username || '';

  return (
    <>
      <MenuButton entries={entries} label={t('user.menu')} testId="user-menu" align="end">
        <span className={styles.avatar} aria-hidden>
          <UserOutlined />
        </span>
        {mobile ? null : <span className={styles.name}>{name}</span>}
        <DownOutlined className={styles.caret} aria-hidden />
      </MenuButton>
      {settingsUsed ? (
        <Suspense>
          <ThemeConfigurator open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      ) : null}
      {variant === 'full' && companyUsed ? (
        <Suspense>
          <TenantSwitchDialog open={companyOpen} onClose={() => setCompanyOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
