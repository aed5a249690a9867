import { KeyOutlined, MoreOutlined, PlusOutlined, StopOutlined, CheckCircleOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { useFormatters } from '@/shared/utils/format';
import { activateUser, deactivateUser, useInvalidateUsers, useRoleOptions, USERS_URL } from '../api/users';
import type { UserRow } from '../api/types';
import { useHasPermission } from '@/shared/session/permissions';
import { ResetPasswordModal } from './ResetPasswordModal';
import { UserCreateDrawer } from './UserCreateDrawer';
import { USER_TYPES } from './userLabels';
import styles from './users.module.css';
import { paths } from '@/shared/routing/paths';

interface Props {
  /** Open the create drawer at once (the /user/create route). */
  initialCreate?: boolean;
}

/** The users of the current company: search, filters, create, deactivate/activate, reset password. */
export function UsersList({ initialCreate = false }: Props) {
  const { t } = useTranslation('users');
  const f = useFormatters();
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidateUsers();
  const canAdd = useHasPermission('users.add_user');
  const canChange = useHasPermission('users.change_user');
  const roles = useRoleOptions();
  const [creating, setCreating] = useState(initialCreate);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const phone = usePhone();

  const toggleActive = (user: UserRow) => {
    const deactivate = user.is_active;
    modal.confirm({
      title: deactivate ? t('deactivate.title', { username: user.username }) : t('activate.title', { username: user.username }),
      content: deactivate ? t('deactivate.description') : t('activate.description'),
      okText: deactivate ? t('deactivate.submit') : t('activate.submit'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: deactivate },
      onOk: async () => {
        try {
          await (deactivate ? deactivateUser(user.id) : activateUser(user.id));
          void message.success(deactivate ? t('deactivate.done') : t('activate.done'));
          await invalidate();
        } catch (error) {
          void message.error(errorText(error));
        }
      },
    });
  };

  // On a phone (below 576px): the username with the name and user type under it, the status, and the actions.
  const columns: ServerColumn<UserRow>[] = [
    {
      title: t('fields.username'),
      dataIndex: 'username',
      sorter: true,
      render: (username: string, row) => (
        <>
          {username}
          {row.name || row.profile_name ? <PhoneLine>{row.name || row.profile_name}</PhoneLine> : null}
          <PhoneLine>{t(`userTypes.${row.user_type}`)}</PhoneLine>
        </>
      ),
    },
    { title: t('fields.name'), dataIndex: 'name', sorter: true, hidden: phone, render: (name: string, row) => name || row.profile_name || '' },
    { title: t('fields.email'), dataIndex: 'email', sorter: true, responsive: ['md'] },
    { title: t('fields.userType'), dataIndex: 'user_type', hidden: phone, render: (type: UserRow['user_type']) => <Tag>{t(`userTypes.${type}`)}</Tag> },
    {
      title: t('fields.roles'),
      key: 'roles',
      responsive: ['md'],
      render: (_v, row) => row.roles.map((role) => <Tag key={role.id}>{role.name}</Tag>),
    },
    { title: t('fields.department'), key: 'department', responsive: ['lg'], render: (_v, row) => row.department?.name ?? '' },
    {
      title: t('fields.status'),
      dataIndex: 'is_active',
      sorter: true,
      render: (active: boolean) => (active ? <Tag color="success">{t('status.active')}</Tag> : <Tag color="error">{t('status.inactive')}</Tag>),
    },
    {
      title: t('fields.lastLogin'),
      dataIndex: 'last_login',
      sorter: true,
      responsive: ['lg'],
      render: (value: string | null) => (value ? f.dateTime(value) : t('never')),
    },
  ];
  if (canChange) {
    columns.push({
      key: 'actions',
      width: 56,
      render: (_v, row) => (
        <span onClick={(event) => event.stopPropagation()}>
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                {
                  key: 'active',
                  icon: row.is_active ? <StopOutlined /> : <CheckCircleOutlined />,
                  label: row.is_active ? t('deactivate.submit') : t('activate.submit'),
                  danger: row.is_active,
                },
                { key: 'password', icon: <KeyOutlined />, label: t('resetPassword.submit') },
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                if (key === 'active') toggleActive(row);
                else setResetting(row);
              },
            }}
          >
            <Button type="text" icon={<MoreOutlined />} aria-label={t('rowActions')} />
          </Dropdown>
        </span>
      ),
    });
  }

  return (
    <>
      <ListPage<UserRow>
        endpoint={USERS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: 'username', filterKeys: ['user_type', 'is_active', 'role'] }}
        searchPlaceholder={t('list.searchPlaceholder')}
        exportFileName="users"
        onRowClick={(row) => void navigate(paths.user(row.id))}
        filters={(list) => (
          <>
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('fields.userType')}
              aria-label={t('fields.userType')}
              value={(list.filters.user_type as string | undefined) ?? undefined}
              onChange={(value?: string) => list.setFilter('user_type', value ?? null)}
              options={USER_TYPES.map((type) => ({ value: type, label: t(`userTypes.${type}`) }))}
            />
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('fields.roles')}
              aria-label={t('fields.roles')}
              value={list.filters.role ? Number(list.filters.role) : undefined}
              onChange={(value?: number) => list.setFilter('role', value === undefined ? null : String(value))}
              options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
            />
            <Select
              allowClear
              className={styles.filterSmall}
              placeholder={t('fields.status')}
              aria-label={t('fields.status')}
              value={(list.filters.is_active as string | undefined) ?? undefined}
              onChange={(value?: string) => list.setFilter('is_active', value ?? null)}
              options={[
                { value: 'true', label: t('status.active') },
                { value: 'false', label: t('status.inactive') },
              ]}
            />
          </>
        )}
        actions={
          canAdd ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('list.new')}
            </Button>
          ) : null
        }
      />
      <UserCreateDrawer
        open={creating}
        onClose={() => {
          setCreating(false);
          if (initialCreate) void navigate(paths.users());
        }}
        onCreated={(user) => {
          setCreating(false);
          void message.success(t('create.done', { username: user.username }));
          void invalidate();
          void navigate(paths.user(user.id));
        }}
      />
      <ResetPasswordModal
        user={resetting}
        onClose={() => setResetting(null)}
        onDone={() => {
          setResetting(null);
          void message.success(t('resetPassword.done'));
        }}
      />
    </>
  );
}
