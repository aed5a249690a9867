import { Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './routing.module.css';

export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <Flex align="center" justify="center" className={styles.fullPage}>
      <Spin size="large" description={t('states.loading')} />
    </Flex>
  );
}
