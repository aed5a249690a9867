import { DisconnectOutlined, WarningOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { browserLocation } from '@/api/hardNavigate';
import { useOnlineStatus } from '@/shared/hooks/useOnlineStatus';
import styles from './routing.module.css';

/** The browser's ways of saying a lazily loaded module could not be fetched (Chromium, Firefox, Safari). */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILED.test(error.message);
}

/**
 * A page of a layout that crashed or whose code could not be loaded, shown inside the layout: the bar,
 * the menu, the offline badge and notice stay. Offline, a page whose code this device has never loaded
 * cannot load: it says so, and that the pages already opened keep working (docs/specification.md
 * section 4); the reload waits for the connection.
 */
export function PageErrorPage() {
  return <RouteProblem />;
}

/**
 * What a route that failed says, in the layout (PageErrorPage) or on the whole page (RouteErrorPage):
 * offline and the code never loaded, that the page is not on this device yet; else that it crashed.
 */
export function RouteProblem() {
  const { t } = useTranslation();
  const error = useRouteError();
  const online = useOnlineStatus();
  const offlineCode = !online && isChunkLoadError(error);
  if (!offlineCode) console.error(error);
  return (
    <div role="alert" data-testid={offlineCode ? 'page-offline' : 'page-crash'}>
      <Flex vertical align="center" gap="middle" className={styles.crash}>
        {offlineCode ? <DisconnectOutlined className={styles.crashIcon} /> : <WarningOutlined className={styles.crashIcon} />}
        <h1 className={styles.crashTitle}>{t(offlineCode ? 'offline.pageTitle' : 'crash.title')}</h1>
        <p className={styles.crashText}>{t(offlineCode ? 'offline.pageText' : 'crash.description')}</p>
        <Button type="primary" disabled={!online} onClick={() => browserLocation.reload()}>
          {t('actions.reload')}
        </Button>
      </Flex>
    </div>
  );
}
