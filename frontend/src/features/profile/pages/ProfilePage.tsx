import { Avatar, Card, Descriptions, Empty, Flex, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { displayName, fullName, parentVendorName } from '@/shared/session/userNames';
import { userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { useCurrentTenant } from '@/shared/tenants/useCurrentTenant';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { ProfileForm } from '../components/ProfileForm';
import styles from './ProfilePage.module.css';

/** The signed-in user's own record (as the server last sent it), its editable details and the password. */
export default function ProfilePage() {
  const { t, i18n } = useTranslation('profile');
  const user = useSession((s) => s.userInfo);
  const tenant = useCurrentTenant();

  if (!user) {
    return (
      <PageContainer>
        <Card>
          <Empty description={t('notLoaded')} />
        </Card>
      </PageContainer>
    );
  }

  const type = userTypeOf(user);
  const vendor = parentVendorName(user.parent_vendor, i18n.language);
  const dash = t('none');
  const address = [user.address, user.post_code, user.city, user.country].filter(Boolean).join(', ');

  return (
    <PageContainer>
      <Card>
        <Flex align="center" gap="middle" wrap>
          <Avatar size={64} icon={<UserOutlined />} />
          <div>
            <Typography.Title level={4} className={styles.name}>
              {displayName(user)}
            </Typography.Title>
            <Typography.Text type="secondary">{user.username}</Typography.Text>
          </div>
          <Tag>{t(`userTypes.${type}`)}</Tag>
          {user.is_staff ? <Tag>{t('staff')}</Tag> : null}
        </Flex>
        <Descriptions column={{ xs: 1, md: 2 }} className={styles.details} bordered size="small">
          <Descriptions.Item label={t('fields.fullName')}>{fullName(user) || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.email')}>{user.email || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.department')}>{user.department?.name ?? dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.company')}>{tenant?.name ?? dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.parentVendor')}>{vendor || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.address')}>{address || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.vismaId')}>{user.visma_id || dash}</Descriptions.Item>
          <Descriptions.Item label={t('fields.vismaCode')}>{user.visma_code || dash}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('edit.title')} className={styles.section}>
        <ProfileForm key={user.id} user={user} />
      </Card>
      <Card title={t('password.title')} className={styles.section}>
        <ChangePasswordForm />
      </Card>
    </PageContainer>
  );
}
