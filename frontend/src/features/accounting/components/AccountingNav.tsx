import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/shared/routing/paths';

const PAGES = [
  { path: paths.accounting(), key: 'connection' },
  { path: paths.accountingMappings(), key: 'mappings' },
  { path: paths.accountingSyncLog(), key: 'syncLog' },
] as const;

/** Switches between the accounting pages (connection, mappings, sync log). */
export function AccountingNav() {
  const { t } = useTranslation('accounting');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = PAGES.find((p) => p.path === pathname.replace(/\/$/, ''))?.path ?? PAGES[0].path;
  return (
    <nav aria-label={t('nav.label')} style={{ marginBottom: 16, overflowX: 'auto' }}>
      <Segmented
        value={current}
        onChange={(value) => void navigate(String(value))}
        options={PAGES.map((p) => ({ value: p.path, label: t(`nav.${p.key}`) }))}
      />
    </nav>
  );
}
