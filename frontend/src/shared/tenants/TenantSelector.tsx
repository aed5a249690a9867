import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/shared/session/useSession';
import { switchTenant } from './tenants';
import { useTenants } from './useTenants';

interface Props {
  /** Only these tenant ids are offered (the warehouse layout offers only company 3). */
  allowedIds?: readonly string[];
  className?: string;
}

/**
 * The tenant selector (docs/specification.md section 2): titled and placeholdered with the Chinese words for
 * "select tenant", tenant name as label, id as value. Choosing one stores it and reloads the page.
 */
export function TenantSelector({ allowedIds, className }: Props) {
  const { t } = useTranslation('tenant');
  const tenantId = useSession((s) => s.tenantId);
  const { data, isLoading, isError } = useTenants();
  const tenants = (data ?? []).filter((tenant) => !allowedIds || allowedIds.includes(String(tenant.id)));

  return (
    <Select
      className={className}
      title={t('selectTitle')}
      placeholder={t('selectTitle')}
      aria-label={t('selectTitle')}
      value={tenants.some((tenant) => String(tenant.id) === tenantId) ? tenantId : undefined}
      loading={isLoading}
      status={isError ? 'error' : undefined}
      notFoundContent={isError ? t('loadFailed') : t('none')}
      options={tenants.map((tenant) => ({ label: tenant.name, value: String(tenant.id) }))}
      onChange={(value: string) => {
        if (value !== tenantId) switchTenant(value);
      }}
      popupMatchSelectWidth={false}
      data-testid="tenant-selector"
    />
  );
}
