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
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '@/features/auth/api/session';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { displayName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import styles from './UserMenu.module.css';

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
  const navigate = useNavigate();
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

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('user.profile') },
    { key: 'settings', icon: <BgColorsOutlined />, label: t('user.settings') },
    ...(variant === 'full'
      ? [
          { key: 'company-settings', icon: <BankOutlined />, label: t('user.companySettings') },
          ...(mayAccounting ? [{ key: 'accounting', icon: <AccountBookOutlined />, label: t('user.accounting') }] : []),
          {
            key: 'user-management',
            icon: <TeamOutlined />,
            label: t('user.userManagement'),
            children: [
              { key: 'user-list', label: t('user.userList') },
              { key: 'user-create', label: t('user.createUser') },
              { key: 'user-departments', label: t('user.departments') },
              { key: 'user-permissions', label: t('user.permissions') },
            ],
          },
          { key: 'switch-company', icon: <SwapOutlined />, label: t('user.switchCompany') },
        ]
      : []),
    { type: 'divider' as const },
    { key: 'sign-out', icon: <LogoutOutlined />, label: t('user.signOut'), danger: true, disabled: signingOut },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    switch (key) {
      case 'profile':
        void navigate('/profile');
        break;
      case 'settings':
        setSettingsUsed(true);
        setSettingsOpen(true);
        break;
      case 'company-settings':
        void navigate('/settings/company');
        break;
      case 'accounting':
        void navigate('/settings/accounting');
        break;
      case 'user-list':
        void navigate('/user');
        break;
      case 'user-create':
        void navigate('/user/create');
        break;
      case 'user-departments':
        void navigate('/user/departments');
        break;
      case 'user-permissions':
        void navigate('/user/permissions');
        break;
      case 'switch-company':
        setCompanyUsed(true);
        setCompanyOpen(true);
        break;
      case 'sign-out':
        setSigningOut(true);
        void signOut();
        break;
      default:
        break;
    }
  };

  const name = displayName(user) || username || '';

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <Button type="text" className={styles.trigger} aria-label={t('user.menu')} data-testid="user-menu">
          <Avatar size="small" icon={<UserOutlined />} />
          {mobile ? null : <span className={styles.name}>{name}</span>}
          <DownOutlined className={styles.caret} />
        </Button>
      </Dropdown>
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
