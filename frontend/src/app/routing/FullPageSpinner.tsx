import { Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import styles from './routing.module.css';

export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <Flex align="center" justify="center" className={`${CSS_VAR_CLASS} ${styles.fullPage}`}>
      <Spin size="large" description={t('states.loading')} />
    </Flex>
  );
}
