import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Flex, Select, Skeleton, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { membershipsQuery, setMemberships } from '../api/users';
import type { Membership } from '../api/types';
import styles from './users.module.css';

interface Props {
  userId: number;
  /** Own account: memberships are changed by another administrator. */
  isSelf: boolean;
  /** The signed-in admin administers every company the user works in (the server's one rule for
   * changing a user, docs/tenancy.md); otherwise the memberships are read-only here. */
  manageable: boolean;
  onDirtyChange: (dirty: boolean) => void;
  onSaved: () => void;
}

/** Which companies the user works in, with roles and department per company (only the companies the
 * signed-in admin administers can be changed). */
export function MembershipsEditor({ userId, isSelf, manageable, onDirtyChange, onSaved }: Props) {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const query = useQuery(membershipsQuery(userId));
  /** The unsaved rows; null while they equal the server's. */
  const [edited, setEdited] = useState<Membership[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Skeleton active />;
  const rows = edited ?? query.data.memberships;

  const change = (tenantId: string, patch: Partial<Membership>) => {
    setEdited(rows.map((row) => (row.tenant.id === tenantId ? { ...row, ...patch } : row)));
    onDirtyChange(true);
  };

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const saved = await setMemberships(
        userId,
        rows.filter((row) => row.is_member).map((row) => ({ tenant: Number(row.tenant.id), roles: row.roles, department: row.department, is_active: row.is_active })),
      );
      queryClient.setQueryData(membershipsQuery(userId).queryKey, saved);
      setEdited(null);
      onDirtyChange(false);
      void message.success(t('memberships.saved'));
      onSaved();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  const disabled = isSelf || !manageable;
  return (
    <Flex vertical gap="middle">
      {isSelf ? <Alert type="info" showIcon title={t('memberships.self')} /> : null}
      {!isSelf && !manageable ? <Alert type="info" showIcon title={t('memberships.notManageable')} data-testid="memberships-not-manageable" /> : null}
      <Table<Membership>
        rowKey={(row) => row.tenant.id}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('memberships.company'),
            render: (_v, row) => (
              <Checkbox checked={row.is_member} disabled={disabled} onChange={(e) => change(row.tenant.id, { is_member: e.target.checked, is_active: true })}>
                {row.tenant.name}
              </Checkbox>
            ),
          },
          {
            title: t('fields.roles'),
            render: (_v, row) => (
              <Select
                mode="multiple"
                className={styles.rolesSelect}
                disabled={disabled || !row.is_member}
                value={row.roles}
                aria-label={t('fields.roles')}
                onChange={(roles: number[]) => change(row.tenant.id, { roles })}
                options={row.available_roles.map((role) => ({ value: role.id, label: role.name }))}
              />
            ),
          },
          {
            title: t('fields.department'),
            render: (_v, row) => (
              <Select
                allowClear
                className={styles.departmentSelect}
                disabled={disabled || !row.is_member}
                value={row.department ?? undefined}
                aria-label={t('fields.department')}
                onChange={(department?: number) => change(row.tenant.id, { department: department ?? null })}
                options={row.available_departments.map((d) => ({ value: d.id, label: d.name }))}
              />
            ),
          },
          {
            title: t('memberships.active'),
            render: (_v, row) => (
              <Switch
                checked={row.is_active}
                disabled={disabled || !row.is_member}
                aria-label={`${t('memberships.active')}: ${row.tenant.name}`}
                onChange={(is_active) => change(row.tenant.id, { is_active })} />
            ),
          },
        ]}
      />
      {query.data.other_tenants.length > 0 ? (
        <Typography.Text type="secondary">
          {t('memberships.others', { companies: query.data.other_tenants.map((tenant) => tenant.name).join(', ') })}
        </Typography.Text>
      ) : null}
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {!disabled ? (
        <Flex justify="flex-end">
          <Button type="primary" loading={saving} onClick={() => void save()}>
            {t('memberships.save')}
          </Button>
        </Flex>
      ) : null}
    </Flex>
  );
}
