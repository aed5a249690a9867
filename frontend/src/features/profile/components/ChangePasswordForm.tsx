import { Alert, App, Button, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { setTokens } from '@/shared/session/sessionStore';
import { changePassword } from '../api/profile';
import styles from '../pages/ProfilePage.module.css';

/** The server's PASSWORD_MIN_LENGTH (docs/operations.md, "Passwords"). */
const MIN_LENGTH = 12;

interface Values {
  old_password: string;
  new_password: string;
  confirm: string;
}

/** The own password: the current one, then a new one that passes the server's password rules. */
export function ChangePasswordForm() {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const { form, onFinish, submitting, formError } = useApiForm<Values, { access: string; refresh: string }>({
    submit: (values) => changePassword(values.old_password, values.new_password),
    onSuccess: (tokens) => {
      // The change ended every session of the user; this device goes on with the answered pair.
      setTokens(tokens.access, tokens.refresh);
      form.resetFields();
      void message.success(t('password.done'));
    },
  });
  return (
    <Form<Values> form={form} layout="vertical" onFinish={(values) => void onFinish(values)} className={styles.passwordForm}>
      <Form.Item name="old_password" label={t('password.current')} rules={[{ required: true, message: t('validation.required') }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="new_password"
        label={t('password.new')}
        extra={t('password.rules', { count: MIN_LENGTH })}
        dependencies={['old_password']}
        rules={[
          { required: true, message: t('validation.required') },
          { min: MIN_LENGTH, message: t('password.minLength', { count: MIN_LENGTH }) },
          { pattern: /\D/, message: t('password.numeric') },
          ({ getFieldValue }) => ({
            validator: (_r, value: string | undefined) =>
              !value || value !== getFieldValue('old_password') ? Promise.resolve() : Promise.reject(new Error(t('password.same'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('password.confirm')}
        dependencies={['new_password']}
        rules={[
          { required: true, message: t('validation.required') },
          ({ getFieldValue }) => ({
            validator: (_r, value: string | undefined) =>
              !value || value === getFieldValue('new_password') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {formError ? <Alert type="error" showIcon title={formError} className={styles.alert} /> : null}
      <Flex justify="flex-end">
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('password.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
