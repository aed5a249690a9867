import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { TenantSelector } from '@/shared/tenants/TenantSelector';
import styles from './UserMenu.module.css';

/** The user menu's Switch Company dialog (loaded when first opened). */
export function TenantSwitchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('tenant');
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      // docs/specification.md section 2: the tenant switch is titled with the Chinese words for "select tenant", in
      // every language, as its selector's placeholder is.
      title={t('selectTitle')}
      destroyOnHidden
      data-testid="switch-company-modal"
    >
      <TenantSelector className={styles.tenantSelect} />
    </Modal>
  );
}
