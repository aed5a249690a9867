import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesClose } from '@/shared/hooks/useUnsavedChangesGuard';
import { createDepartment, updateDepartment, useDepartmentOptions } from '../api/users';
import type { Department } from '../api/types';

interface Props {
  /** The department to edit, `null` for a new one; open when not undefined. */
  department: Department | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

type Values = Pick<Department, 'name' | 'description' | 'parent'>;

export function DepartmentModal({ department, onClose, onSaved }: Props) {
  const { t } = useTranslation('users');
  const options = useDepartmentOptions();
  const { markDirty, afterSave, requestClose } = useUnsavedChangesClose(department !== undefined, onClose);
  const { form, onFinish, submitting, formError } = useApiForm<Values>({
    submit: (values) => {
      const body = { ...values, name: values.name.trim(), parent: values.parent ?? null };
      return department ? updateDepartment(department.id, body) : createDepartment(body);
    },
    onSuccess: () => afterSave(onSaved),
  });
  return (
    <Modal
      open={department !== undefined}
      title={department ? t('departments.editTitle', { name: department.name }) : t('departments.createTitle')}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      onCancel={requestClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={department ?? { name: '', description: '', parent: null }}
        onValuesChange={markDirty}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item
          name="name"
          label={t('departments.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 120, message: t('validation.maxLength', { count: 120 }) }]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="description" label={t('departments.description')} rules={[{ max: 500, message: t('validation.maxLength', { count: 500 }) }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item name="parent" label={t('departments.parent')}>
          <Select
            allowClear
            options={(options.data ?? []).filter((d) => d.id !== department?.id).map((d) => ({ value: d.id, label: d.name }))}
          />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
