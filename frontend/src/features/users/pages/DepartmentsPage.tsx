import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ListPage } from '@/shared/components/ListPage';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { deleteDepartment, DEPARTMENTS_URL, usersKeys } from '../api/users';
import type { Department } from '../api/types';
import { DepartmentModal } from '../components/DepartmentModal';
import { useHasPermission } from '@/shared/session/permissions';

/** Departments of the current company: list, create, edit (row click), delete. */
export default function DepartmentsPage() {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useHasPermission('users.add_department');
  const canChange = useHasPermission('users.change_department');
  const canDelete = useHasPermission('users.delete_department');
  const [editing, setEditing] = useState<Department | null | undefined>(undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: usersKeys.departments });

  const columns: ServerColumn<Department>[] = [
    { title: t('departments.name'), dataIndex: 'name', sorter: true },
    { title: t('departments.description'), dataIndex: 'description', responsive: ['md'] },
    { title: t('departments.parent'), dataIndex: 'parent_name' },
    { title: t('departments.members'), dataIndex: 'member_count', sorter: true, align: 'right' },
  ];
  if (canDelete) {
    columns.push({
      key: 'actions',
      width: 56,
      render: (_v, row) => (
        <span onClick={(event) => event.stopPropagation()}>
          <ConfirmDelete
            itemLabel={row.name}
            onConfirm={async () => {
              await deleteDepartment(row.id);
              await refresh();
            }}
          />
        </span>
      ),
    });
  }

  return (
    <>
      <ListPage<Department>
        endpoint={DEPARTMENTS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: 'name', filterKeys: [] }}
        exportFileName="departments"
        onRowClick={canChange ? (row) => setEditing(row) : undefined}
        actions={
          canAdd ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
              {t('departments.new')}
            </Button>
          ) : null
        }
      />
      <DepartmentModal
        department={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          void refresh();
          void message.success(t('detail.saved'));
        }}
      />
    </>
  );
}
