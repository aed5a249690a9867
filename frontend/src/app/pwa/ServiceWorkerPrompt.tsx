import { Button, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../feedback/FeedbackProvider';
import { SW_NEED_REFRESH, SW_OFFLINE_READY, announced, applyUpdate } from './registerServiceWorker';

const UPDATE_KEY = 'sw-update';

/** Offers to reload when a new version is ready, and says once when the app works offline. */
export function ServiceWorkerPrompt() {
  const { t } = useTranslation();
  const { notification } = useFeedback();

  useEffect(() => {
    const onNeedRefresh = () => {
      notification.info({
        key: UPDATE_KEY,
        title: t('pwa.updateTitle'),
        description: t('pwa.updateDescription'),
        duration: 0,
        actions: (
          <Space>
            <Button onClick={() => notification.destroy(UPDATE_KEY)}>{t('pwa.later')}</Button>
            <Button type="primary" onClick={() => void applyUpdate()} data-testid="sw-reload">
              {t('pwa.reload')}
            </Button>
          </Space>
        ),
      });
    };
    const onOfflineReady = () => {
      announced.offlineReady = false;
      // Bottom right: at the top right it would cover the user menu on a supplier's first visit.
      notification.success({ title: t('pwa.offlineReady'), duration: 4, placement: 'bottomRight' });
    };
    if (announced.needRefresh) onNeedRefresh();
    if (announced.offlineReady) onOfflineReady();
    window.addEventListener(SW_NEED_REFRESH, onNeedRefresh);
    window.addEventListener(SW_OFFLINE_READY, onOfflineReady);
    return () => {
      window.removeEventListener(SW_NEED_REFRESH, onNeedRefresh);
      window.removeEventListener(SW_OFFLINE_READY, onOfflineReady);
    };
  }, [notification, t]);

  return null;
}
