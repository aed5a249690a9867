import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesClose } from '@/shared/hooks/useUnsavedChangesGuard';
import { createRole, updateRole } from '../api/users';
import type { Role } from '../api/types';

interface Props {
  /** The role to rename, `null` for a new one; open when not undefined. */
  role: Role | null | undefined;
  onClose: () => void;
  onSaved: (role: Role) => void;
}

type Values = Pick<Role, 'name' | 'description'>;

export function RoleModal({ role, onClose, onSaved }: Props) {
  const { t } = useTranslation('users');
  const { markDirty, afterSave, requestClose } = useUnsavedChangesClose(role !== undefined, onClose);
  const { form, onFinish, submitting, formError } = useApiForm<Values, Role>({
    submit: (values) => {
      const body = { name: values.name.trim(), description: values.description ?? '' };
      return role ? updateRole(role.id, body) : createRole(body);
    },
    onSuccess: (saved) => afterSave(() => onSaved(saved)),
  });
  return (
    <Modal
      open={role !== undefined}
      title={role ? t('roles.editTitle', { name: role.name }) : t('roles.createTitle')}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      onCancel={requestClose}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" preserve={false} initialValues={role ?? { name: '', description: '' }} onValuesChange={markDirty} onFinish={(values) => void onFinish(values)}>
        <Form.Item
          name="name"
          label={t('roles.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 120, message: t('validation.maxLength', { count: 120 }) }]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="description" label={t('roles.description')} rules={[{ max: 500, message: t('validation.maxLength', { count: 500 }) }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
