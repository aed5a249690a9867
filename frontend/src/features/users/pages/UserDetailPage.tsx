import { ArrowLeftOutlined, CheckCircleOutlined, KeyOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useSession } from '@/shared/session/useSession';
import { activateUser, deactivateUser, useInvalidateUsers, userQuery } from '../api/users';
import { MembershipsEditor } from '../components/MembershipsEditor';
import { ResetPasswordModal } from '../components/ResetPasswordModal';
import { UserAccountForm } from '../components/UserAccountForm';
import { useHasPermission } from '@/shared/session/permissions';
import styles from '../components/users.module.css';
import { paths } from '@/shared/routing/paths';

/** One user: account fields, memberships per company, deactivate/activate, reset password. */
export default function UserDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateUsers();
  const canChange = useHasPermission('users.change_user');
  const ownId = useSession((s) => s.userInfo?.id);
  const query = useQuery(userQuery(id));
  const [accountDirty, setAccountDirty] = useState(false);
  const [membershipsDirty, setMembershipsDirty] = useState(false);
  const [resetting, setResetting] = useState(false);
  useUnsavedChangesGuard(accountDirty || membershipsDirty);

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(paths.users())}>
      {t('detail.back')}
    </Button>
  );
  if (query.isError) {
    return (
      <PageContainer extra={back}>
        <Card>
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        </Card>
      </PageContainer>
    );
  }
  const user = query.data;
  if (!user) {
    return (
      <PageContainer extra={back}>
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      </PageContainer>
    );
  }

  const isSelf = ownId === user.id;
  const manage = canChange && user.can_manage_account;
  const toggleActive = () => {
    const deactivate = user.is_active;
    modal.confirm({
      title: deactivate ? t('deactivate.title', { username: user.username }) : t('activate.title', { username: user.username }),
      content: deactivate ? t('deactivate.description') : t('activate.description'),
      okText: deactivate ? t('deactivate.submit') : t('activate.submit'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: deactivate },
      onOk: async () => {
        try {
          const saved = await (deactivate ? deactivateUser(user.id) : activateUser(user.id));
          queryClient.setQueryData(userQuery(id).queryKey, saved);
          void invalidate();
          void message.success(deactivate ? t('deactivate.done') : t('activate.done'));
        } catch (error) {
          void message.error(errorText(error));
        }
      },
    });
  };

  const title = (
    <Flex align="center" gap="small" wrap>
      <span>{user.name || user.username}</span>
      <Tag>{t(`userTypes.${user.user_type}`)}</Tag>
      {user.is_active ? <Tag color="success">{t('status.active')}</Tag> : <Tag color="error">{t('status.inactive')}</Tag>}
    </Flex>
  );
  const actions = (
    <>
      {back}
      {manage && !isSelf ? (
        <Button icon={user.is_active ? <StopOutlined /> : <CheckCircleOutlined />} danger={user.is_active} onClick={toggleActive}>
          {user.is_active ? t('deactivate.submit') : t('activate.submit')}
        </Button>
      ) : null}
      {manage ? (
        <Button icon={<KeyOutlined />} onClick={() => setResetting(true)}>
          {t('resetPassword.submit')}
        </Button>
      ) : null}
    </>
  );

  return (
    <PageContainer title={title} extra={actions}>
      <Card title={t('detail.account')} className={styles.card}>
        <UserAccountForm
          key={`${user.id}-${user.username}-${user.is_active}`}
          user={user}
          onDirtyChange={setAccountDirty}
          onSaved={(saved) => {
            queryClient.setQueryData(userQuery(id).queryKey, saved);
            void invalidate();
            void message.success(t('detail.saved'));
          }}
        />
      </Card>
      {canChange ? (
        <Card title={t('memberships.title')} className={styles.card}>
          <MembershipsEditor userId={user.id} isSelf={isSelf} manageable={user.can_manage_account} onDirtyChange={setMembershipsDirty} onSaved={() => void invalidate()} />
        </Card>
      ) : null}
      <ResetPasswordModal
        user={resetting ? user : null}
        onClose={() => setResetting(false)}
        onDone={() => {
          setResetting(false);
          void message.success(t('resetPassword.done'));
        }}
      />
    </PageContainer>
  );
}
