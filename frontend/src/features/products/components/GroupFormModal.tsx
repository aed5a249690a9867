import { Alert, App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useSaveGroup } from '../api/products';
import type { ProductGroup, ProductGroupInput, ProductGroupNode } from '../api/types';
import { GroupTreeSelect } from './GroupTreeSelect';
import { useConfirmDiscard } from '@/shared/hooks/useUnsavedChangesGuard';

export type GroupFormTarget =
  | { mode: 'create'; parent: number | null }
  | { mode: 'edit'; group: ProductGroupNode };

interface Props {
  target: GroupFormTarget;
  onClose: () => void;
}

/** Create or edit a product group in a modal; closing with changes asks first. */
export function GroupFormModal({ target, onClose }: Props) {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const editing = target.mode === 'edit' ? target.group : undefined;
  const save = useSaveGroup(editing?.id);
  const [dirty, setDirty] = useState(false);
  const confirmDiscard = useConfirmDiscard();
  const { form, onFinish, submitting, formError } = useApiForm<ProductGroupInput, ProductGroup>({
    submit: (values) =>
      save.mutateAsync({
        name: values.name.trim(),
        code: (values.code ?? '').trim(),
        description: values.description ?? '',
        parent: values.parent ?? null,
      }),
    onSuccess: () => {
      void message.success(t('form.saved'));
      onClose();
    },
  });

  const cancel = () => confirmDiscard(dirty, onClose);

  return (
    <Modal
      open
      title={editing ? t('groups.editTitle', { name: editing.name }) : t('groups.createTitle')}
      onCancel={cancel}
      onOk={() => form.submit()}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={submitting}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form<ProductGroupInput>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        onValuesChange={() => setDirty(true)}
        initialValues={{
          name: editing?.name ?? '',
          code: editing?.code ?? '',
          description: editing?.description ?? '',
          parent: editing ? editing.parent : target.mode === 'create' ? target.parent : null,
        }}
        data-testid="group-form"
      >
        <Form.Item
          name="name"
          label={t('groups.fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            { max: 200, message: t('validation.max', { max: 200 }) },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="code" label={t('groups.fields.code')} rules={[{ max: 50, message: t('validation.max', { max: 50 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="parent" label={t('groups.fields.parent')} extra={t('groups.parentHint')}>
          <GroupTreeSelect excludeGroup={editing?.id} placeholder={t('groups.noParent')} />
        </Form.Item>
        <Form.Item name="description" label={t('groups.fields.description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
