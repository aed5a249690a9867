import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Flex, Select, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { useConfirmDiscard, useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { deleteRole, setRolePermissions, useAllRoles, usePermissionMatrix, usersKeys } from '../api/users';
import type { Role } from '../api/types';
import { PermissionMatrix } from '../components/PermissionMatrix';
import { RoleModal } from '../components/RoleModal';
import { useHasPermission } from '@/shared/session/permissions';
import styles from '../components/users.module.css';

/** Roles of the current company and their permissions as a matrix of areas x view/add/change/delete. */
export default function PermissionsPage() {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const roles = useAllRoles();
  const matrix = usePermissionMatrix();
  const canAdd = useHasPermission('users.add_role');
  const canChange = useHasPermission('users.change_role');
  const canDelete = useHasPermission('users.delete_role');
  const [chosenRoleId, setRoleId] = useState<number | null>(null);
  /** The unsaved selection; null while it equals the role's saved permissions. */
  const [edits, setEdits] = useState<Set<string> | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Role | null | undefined>(undefined);
  const dirty = edits !== null;
  useUnsavedChangesGuard(dirty);
  const confirmDiscard = useConfirmDiscard();

  const roleId = chosenRoleId ?? roles.data?.[0]?.id ?? null;
  const role = useMemo(() => roles.data?.find((r) => r.id === roleId) ?? null, [roles.data, roleId]);
  const selected = useMemo(() => edits ?? new Set(role?.permissions ?? []), [edits, role]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: usersKeys.roles });

  const choose = (id: number) => {
    const go = () => {
      setEdits(null);
      setSaveError(null);
      setRoleId(id);
    };
    confirmDiscard(dirty, go);
  };

  const toggle = (labels: string[], checked: boolean) => {
    const next = new Set(selected);
    for (const label of labels) {
      if (checked) next.add(label);
      else next.delete(label);
    }
    setEdits(next);
  };

  const save = async () => {
    if (!role) return;
    setSaving(true);
    setSaveError(null);
    try {
      await setRolePermissions(role.id, [...selected].sort());
      await refresh();
      setEdits(null);
      void message.success(t('roles.saved'));
    } catch (error) {
      setSaveError(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  if (roles.isError || matrix.isError) {
    return (
      <PageContainer>
        <Card>
          <ErrorState error={roles.error ?? matrix.error} onRetry={() => void Promise.all([roles.refetch(), matrix.refetch()])} />
        </Card>
      </PageContainer>
    );
  }

  return (
    <PageContainer
      extra={
        canAdd ? (
          <Button icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('roles.new')}
          </Button>
        ) : null
      }
    >
      <Card>
        {!roles.data || !matrix.data ? (
          <Skeleton active paragraph={{ rows: 10 }} />
        ) : roles.data.length === 0 ? (
          <Empty description={t('roles.none')} />
        ) : (
          <Flex vertical gap="middle">
            <Flex justify="space-between" align="center" wrap gap="small" className={styles.matrixHeader}>
              <Flex align="center" gap="small" wrap>
                <Typography.Text strong>{t('roles.role')}</Typography.Text>
                <Select
                  className={styles.roleSelect}
                  value={roleId ?? undefined}
                  onChange={choose}
                  aria-label={t('roles.role')}
                  options={roles.data.map((r) => ({ value: r.id, label: `${r.name} (${t('roles.users', { count: r.user_count })})` }))}
                />
                {role && canChange ? (
                  <Button icon={<EditOutlined />} onClick={() => setEditing(role)}>
                    {t('roles.rename')}
                  </Button>
                ) : null}
                {role && canDelete ? (
                  <ConfirmDelete
                    itemLabel={role.name}
                    onConfirm={async () => {
                      await deleteRole(role.id);
                      setEdits(null);
                      setRoleId(null);
                      await refresh();
                    }}
                  >
                    <Button danger icon={<DeleteOutlined />}>
                      {t('roles.delete')}
                    </Button>
                  </ConfirmDelete>
                ) : null}
              </Flex>
              {canChange ? (
                <Button type="primary" disabled={!dirty} loading={saving} onClick={() => void save()}>
                  {t('roles.save')}
                </Button>
              ) : null}
            </Flex>
            {role?.description ? <Typography.Text type="secondary">{role.description}</Typography.Text> : null}
            {saveError ? <Alert type="error" showIcon title={saveError} /> : null}
            <PermissionMatrix areas={matrix.data.areas} selected={selected} disabled={!canChange} onChange={toggle} />
          </Flex>
        )}
      </Card>
      <RoleModal
        role={editing}
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => {
          setEditing(undefined);
          void refresh();
          if (!dirty) setRoleId(saved.id);
          void message.success(t('detail.saved'));
        }}
      />
    </PageContainer>
  );
}
