import { DisconnectOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from '@/shared/hooks/useOnlineStatus';

/** The "Offline" tag in the bar of every layout while the device has no connection. */
export function OfflineBadge() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <Tag icon={<DisconnectOutlined />} color="warning" data-testid="offline-badge">
      {t('offline.badge')}
    </Tag>
  );
}
