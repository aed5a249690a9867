import { BankOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { useCurrentTenant } from '@/shared/tenants/useCurrentTenant';

/** The company (tenant) the user works in now. */
export function CompanyBadge() {
  const { t } = useTranslation('nav');
  const tenant = useCurrentTenant();
  const mobile = useIsMobileMenu();
  if (!tenant || mobile) return null;
  return (
    <Tooltip title={t('user.currentCompany')}>
      <Tag icon={<BankOutlined />} data-testid="current-company">
        {tenant.name}
      </Tag>
    </Tooltip>
  );
}
