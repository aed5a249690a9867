import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { WarehouseSearch } from '@/features/warehouse/components/WarehouseSearch';
import { LanguageSwitcher } from '@/shared/components/LanguageSwitcher';
import { OfflineBadge } from '@/shared/components/OfflineBadge';
import { usePhone } from '@/shared/hooks/usePhone';
import { TenantSelector } from '@/shared/tenants/TenantSelector';
import { UserMenu } from './components/UserMenu';
import { WAREHOUSE_MENU, selectedMenuKey, toMenuEntries } from './navigation';
import { ShellLayout } from './ShellLayout';
import styles from './WarehouseLayout.module.css';

/** docs/specification.md section 6: the warehouse layout offers only the trading company (3). */
export const WAREHOUSE_TENANT_IDS = ['3'] as const;

/** Warehouse users: inventory, shipments, deliveries, a search box, the trading company only. */
export function WarehouseLayout() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the language
  const entries = useMemo(() => toMenuEntries(WAREHOUSE_MENU, t, false), [t, i18n.language]);

  const search = <WarehouseSearch />;
  // On a phone the bar has room for the company and the user menu only: the language switch moves to
  // the foot of the menu drawer.
  const phone = usePhone();

  return (
    <ShellLayout
      kind="warehouse"
      entries={entries}
      selectedKey={selectedMenuKey(WAREHOUSE_MENU, pathname)}
      search={search}
      menuTools={phone ? <LanguageSwitcher /> : undefined}
      tools={
        <>
          <OfflineBadge />
          <TenantSelector allowedIds={WAREHOUSE_TENANT_IDS} className={styles.tenant} />
          {phone ? null : <LanguageSwitcher />}
          <UserMenu variant="simple" />
        </>
      }
    />
  );
}
