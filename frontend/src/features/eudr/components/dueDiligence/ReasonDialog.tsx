import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import styles from '../eudr.module.css';

interface Props {
  open: boolean;
  title: string;
  help: string;
  okText: string;
  /** The label of the text (default: "Reason"). */
  label?: string;
  danger?: boolean;
  done: string;
  testId: string;
  submit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

/** Asks for the reason a kept record is archived, voided, overridden or resolved; the server keeps it. */
export function ReasonDialog({ open, title, help, okText, label, danger, done, testId, submit, onClose }: Props) {
  const { t } = useTranslation('dueDiligence');
  const { message } = App.useApp();
  const { form, onFinish, submitting, formError, clearFormError } = useApiForm<{ reason: string }>({
    submit: (values) => submit(values.reason.trim()),
    onSuccess: () => {
      void message.success(done);
      onClose();
    },
  });
  const close = () => {
    clearFormError();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      okButtonProps={{ danger, 'data-testid': `${testId}-ok` }}
      cancelText={t('common:actions.cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Alert type={danger ? 'warning' : 'info'} showIcon className={styles.section} title={help} />
      <Form form={form} layout="vertical" preserve={false} onFinish={(values) => void onFinish(values)}>
        <Form.Item name="reason" label={label ?? t('reason')} rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}>
          <Input.TextArea autoFocus rows={3} maxLength={2000} showCount data-testid={`${testId}-reason`} />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
