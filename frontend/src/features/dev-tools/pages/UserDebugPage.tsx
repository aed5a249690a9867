import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { displayName, fullName, parentVendorIdOf, parentVendorName } from '@/shared/session/userNames';
import { layoutFor, userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import styles from './UserDebugPage.module.css';

/** Staff only: what the browser holds about the session, to diagnose a user's report. */
export default function UserDebugPage() {
  const { t, i18n } = useTranslation('devTools');
  const session = useSession((s) => s);
  const user = session.userInfo;
  const dash = t('none');

  return (
    <PageContainer>
      <Card title={t('derived')}>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('fields.userType')}>{user ? userTypeOf(user) : dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.layout')}>{layoutFor(user)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.displayName')}>{displayName(user) || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.fullName')}>{fullName(user) || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.parentVendor')}>
            {user ? `${parentVendorIdOf(user) ?? dash} ${parentVendorName(user.parent_vendor, i18n.language)}` : dash}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.tenant')}>{session.tenantId ?? dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.storedParentVendor')}>{session.parentVendorId ?? dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.rememberUser')}>{String(session.rememberUser)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.accessToken')}>{session.accessToken ? t('present') : dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.refreshToken')}>{session.refreshToken ? t('present') : dash}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('userInfo')} className={styles.block}>
        <Typography.Paragraph>
          <pre data-testid="user-info-json">{JSON.stringify(user, null, 2)}</pre>
        </Typography.Paragraph>
      </Card>
    </PageContainer>
  );
}
