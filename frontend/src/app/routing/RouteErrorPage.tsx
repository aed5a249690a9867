import { WarningOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { browserLocation } from '@/api/hardNavigate';
import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import styles from './routing.module.css';

/**
 * A page crashed or its code could not be loaded (e.g. after an update): say so and offer a reload.
 * Deliberately light (no Result illustrations): it is part of the entry bundle.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <div className={`${CSS_VAR_CLASS} ${styles.fullPage}`} role="alert">
      <Flex vertical align="center" gap="middle" className={styles.crash}>
        <WarningOutlined className={styles.crashIcon} />
        <h1 className={styles.crashTitle}>{t('crash.title')}</h1>
        <p className={styles.crashText}>{t('crash.description')}</p>
        <Button type="primary" onClick={() => browserLocation.reload()}>
          {t('actions.reload')}
        </Button>
      </Flex>
    </div>
  );
}
