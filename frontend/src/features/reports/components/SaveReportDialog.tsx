import { Alert, Checkbox, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';

export interface SaveValues {
  name: string;
  description: string;
  shared: boolean;
}

interface Props {
  open: boolean;
  initial: SaveValues;
  onCancel: () => void;
  onSave: (values: SaveValues) => Promise<unknown>;
}

/** Names a report and says whether the company sees it; server field errors land on their fields. */
export function SaveReportDialog({ open, initial, onCancel, onSave }: Props) {
  const { t } = useTranslation('reports');
  const { form, onFinish, submitting, formError } = useApiForm<SaveValues>({ submit: onSave });
  return (
    <Modal
      open={open}
      title={t('saveTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={submitting}
      onCancel={onCancel}
      onOk={() => form.submit()}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => void onFinish(values)} preserve={false}>
        <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('nameRequired') }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="description" label={t('description')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        <Form.Item name="shared" valuePropName="checked">
          <Checkbox>{t('sharedWithCompany')}</Checkbox>
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
