import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export function ProductStatusTag({ active }: { active: boolean }) {
  const { t } = useTranslation('products');
  return <Tag color={active ? 'success' : 'default'}>{active ? t('status.active') : t('status.inactive')}</Tag>;
}
