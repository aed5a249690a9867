import { BankOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { useCurrentTenant } from '@/shared/tenants/useCurrentTenant';
import styles from './AppHeader.module.css';

/** The company (tenant) the user works in now: its name, introduced as such to assistive technology. */
export function CompanyBadge() {
  const { t } = useTranslation('nav');
  const tenant = useCurrentTenant();
  const mobile = useIsMobileMenu();
  if (!tenant || mobile) return null;
  return (
    <span className={styles.company} title={t('user.currentCompany')}>
      <BankOutlined aria-hidden />
      <span className="sr-only">{t('user.currentCompany')}: </span>
      <span className={styles.companyName} data-testid="current-company">
        {tenant.name}
      </span>
    </span>
  );
}
