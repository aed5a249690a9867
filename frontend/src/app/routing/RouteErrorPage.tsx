import { WarningOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { browserLocation } from '@/api/hardNavigate';
import { useOnlineStatus } from '@/shared/hooks/useOnlineStatus';
import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import { isChunkLoadError } from './PageErrorPage';
import styles from './routing.module.css';

/**
 * A page crashed or its code could not be loaded (e.g. after an update): say so and offer a reload.
 * Offline, code the device never loaded (a layout's, before its first page arrived) says that instead,
 * as a layout's page does (PageErrorPage); the reload waits for the connection.
 * Deliberately light (no Result illustrations): it is part of the entry bundle.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const online = useOnlineStatus();
  const offlineCode = !online && isChunkLoadError(error);
  if (!offlineCode) console.error(error);
  return (
    <div className={`${CSS_VAR_CLASS} ${styles.fullPage}`} role="alert" data-testid={offlineCode ? 'page-offline' : 'page-crash'}>
      <Flex vertical align="center" gap="middle" className={styles.crash}>
        <WarningOutlined className={styles.crashIcon} />
        <h1 className={styles.crashTitle}>{t(offlineCode ? 'offline.pageTitle' : 'crash.title')}</h1>
        <p className={styles.crashText}>{t(offlineCode ? 'offline.pageText' : 'crash.description')}</p>
        <Button type="primary" disabled={!online} onClick={() => browserLocation.reload()}>
          {t('actions.reload')}
        </Button>
      </Flex>
    </div>
  );
}
