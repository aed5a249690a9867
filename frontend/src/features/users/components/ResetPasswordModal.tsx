import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { resetPassword } from '../api/users';
import { MIN_PASSWORD_LENGTH, passwordProblem } from './userLabels';

interface Props {
  user: { id: number; username: string } | null;
  onClose: () => void;
  onDone: () => void;
}

/** An administrator sets a new password for a user (the server's password rules apply). */
export function ResetPasswordModal({ user, onClose, onDone }: Props) {
  const { t } = useTranslation('users');
  const { form, onFinish, submitting, formError } = useApiForm<{ password: string; confirm: string }>({
    submit: (values) => resetPassword(user?.id ?? 0, values.password),
    onSuccess: () => {
      form.resetFields();
      onDone();
    },
  });
  return (
    <Modal
      open={user !== null}
      title={t('resetPassword.title', { username: user?.username ?? '' })}
      okText={t('resetPassword.submit')}
      cancelText={t('common:actions.cancel')}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void onFinish(values)} preserve={false}>
        <Form.Item
          name="password"
          label={t('fields.newPassword')}
          extra={t('password.rules', { count: MIN_PASSWORD_LENGTH })}
          rules={[
            { required: true, message: t('validation.required') },
            {
              validator: (_r, value: string | undefined) => {
                const problem = value ? passwordProblem(value) : null;
                return problem ? Promise.reject(new Error(t(`password.${problem}`, { count: MIN_PASSWORD_LENGTH }))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('fields.confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('validation.required') },
            ({ getFieldValue }) => ({
              validator: (_r, value: string | undefined) =>
                !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
