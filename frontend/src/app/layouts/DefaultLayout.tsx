import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { LanguageSwitcher } from '@/shared/components/LanguageSwitcher';
import { OfflineBadge } from '@/shared/components/OfflineBadge';
import { useSession } from '@/shared/session/useSession';
import { CompanyBadge } from './components/CompanyBadge';
import { UserMenu } from './components/UserMenu';
import { DEFAULT_MENU, selectedMenuKey, toMenuEntries } from './navigation';
import { ShellLayout } from './ShellLayout';

/** Internal staff (and everyone while user info loads): the full menubar. */
export function DefaultLayout() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const isStaff = useSession((s) => Boolean(s.userInfo?.is_staff));
  const permissions = useSession((s) => s.userInfo?.permissions);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the language
  const entries = useMemo(() => toMenuEntries(DEFAULT_MENU, t, isStaff, permissions), [t, isStaff, permissions, i18n.language]);

  return (
    <ShellLayout
      kind="default"
      entries={entries}
      selectedKey={selectedMenuKey(DEFAULT_MENU, pathname)}
      menuTools={<LanguageSwitcher />}
      tools={
        <>
          <OfflineBadge />
          <CompanyBadge />
          <UserMenu variant="full" />
        </>
      }
    />
  );
}
