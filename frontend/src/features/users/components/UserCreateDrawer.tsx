import { Alert, Button, Drawer, Flex, Form, Input, Segmented, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserType } from '@/api/types';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesClose } from '@/shared/hooks/useUnsavedChangesGuard';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { createUser, useDepartmentOptions, useRoleOptions, useVendorOptions } from '../api/users';
import type { UserCreateInput, UserDetail } from '../api/types';
import { MIN_PASSWORD_LENGTH, passwordProblem, USER_TYPES, USERNAME_PATTERN } from './userLabels';

interface Values extends UserCreateInput {
  confirm: string;
}

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (user: UserDetail) => void;
}

/** A new account with its roles and department in the current company. */
export function UserCreateDrawer({ open, onClose, onCreated }: Props) {
  const { t, i18n } = useTranslation('users');
  const narrow = useMediaQuery('(max-width: 600px)');
  const [userType, setUserType] = useState<UserType>('internal');
  const roles = useRoleOptions();
  const departments = useDepartmentOptions();
  const vendors = useVendorOptions(open && userType === 'supplier');
  const { markDirty, afterSave, requestClose } = useUnsavedChangesClose(open, () => {
    setUserType('internal');
    onClose();
  });
  const { form, onFinish, submitting, formError } = useApiForm<Values, UserDetail>({
    submit: ({ confirm: _confirm, ...values }) =>
      createUser({ ...values, username: values.username.trim(), user_type: userType, parent_vendor: userType === 'supplier' ? values.parent_vendor : null }),
    onSuccess: (user) => {
      form.resetFields();
      setUserType('internal');
      afterSave(() => onCreated(user));
    },
  });
  const required = { required: true, whitespace: true, message: t('validation.required') };

  return (
    <Drawer
      open={open}
      onClose={requestClose}
      title={t('create.title')}
      size={narrow ? '100%' : 520}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap="small">
          <Button onClick={requestClose}>{t('common:actions.cancel')}</Button>
          <Button type="primary" loading={submitting} onClick={() => form.submit()}>
            {t('create.submit')}
          </Button>
        </Flex>
      }
    >
      <Form<Values> form={form} layout="vertical" onFinish={(values) => void onFinish(values)} onValuesChange={markDirty} initialValues={{ role_ids: [], department_id: null }}>
        <Form.Item label={t('fields.userType')}>
          <Segmented<UserType>
            block
            value={userType}
            onChange={(type) => {
              setUserType(type);
              markDirty();
            }}
            options={USER_TYPES.map((type) => ({ value: type, label: t(`userTypes.${type}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="username"
          label={t('fields.username')}
          rules={[required, { max: 150, message: t('validation.maxLength', { count: 150 }) }, { pattern: USERNAME_PATTERN, message: t('validation.username') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label={t('fields.name')} rules={[{ max: 200, message: t('validation.maxLength', { count: 200 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="email" label={t('fields.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
          <Input type="email" />
        </Form.Item>
        {userType === 'supplier' ? (
          <Form.Item name="parent_vendor" label={t('fields.parentVendor')} rules={[{ required: true, message: t('validation.parentVendor') }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={vendors.isLoading}
              options={(vendors.data ?? []).map((v) => ({ value: v.id, label: i18n.language === 'zh' && v.cname ? v.cname : v.name }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="role_ids" label={t('fields.roles')}>
          <Select mode="multiple" loading={roles.isLoading} options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))} />
        </Form.Item>
        <Form.Item name="department_id" label={t('fields.department')}>
          <Select allowClear loading={departments.isLoading} options={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('fields.password')}
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
          <Input.Password autoComplete="new-password" />
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
    </Drawer>
  );
}
