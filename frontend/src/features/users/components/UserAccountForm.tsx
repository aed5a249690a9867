import { Alert, Button, Col, Flex, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserType } from '@/api/types';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { updateUser, useVendorOptions } from '../api/users';
import type { UserAccountInput, UserDetail } from '../api/types';
import { USER_TYPES, USERNAME_PATTERN } from './userLabels';
import styles from './users.module.css';

interface Props {
  user: UserDetail;
  onSaved: (user: UserDetail) => void;
  onDirtyChange: (dirty: boolean) => void;
}

function toValues(user: UserDetail): UserAccountInput {
  return {
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    name: user.name,
    profile_name: user.profile_name,
    phone: user.phone,
    visma_id: user.visma_id,
    visma_owner_id: user.visma_owner_id,
    visma_code: user.visma_code,
    address: user.address,
    city: user.city,
    country: user.country,
    post_code: user.post_code,
    language: user.language,
    user_type: user.user_type,
    parent_vendor: user.parent_vendor,
  };
}

/** The account's fields; read-only when the signed-in admin does not administer all the user's companies. */
export function UserAccountForm({ user, onSaved, onDirtyChange }: Props) {
  const { t, i18n } = useTranslation('users');
  const readOnly = !user.can_manage_account;
  const { form, onFinish, submitting, formError } = useApiForm<UserAccountInput, UserDetail>({
    submit: (values) => updateUser(user.id, { ...values, parent_vendor: values.user_type === 'supplier' ? values.parent_vendor : null }),
    onSuccess: (saved) => {
      onDirtyChange(false);
      onSaved(saved);
    },
  });
  const userType = Form.useWatch('user_type', form) ?? user.user_type;
  const vendors = useVendorOptions(userType === 'supplier');
  const max = (n: number) => ({ max: n, message: t('validation.maxLength', { count: n }) });
  const text = (name: keyof UserAccountInput, label: string, limit: number, span = 12) => (
    <Col xs={24} md={span}>
      <Form.Item name={name} label={label} rules={[max(limit)]}>
        <Input />
      </Form.Item>
    </Col>
  );

  return (
    <Form<UserAccountInput>
      form={form}
      layout="vertical"
      initialValues={toValues(user)}
      disabled={readOnly}
      onFinish={(values) => void onFinish(values)}
      onValuesChange={() => onDirtyChange(true)}
    >
      {readOnly ? <Alert type="info" showIcon title={t('detail.notManageable')} className={styles.alert} /> : null}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="username"
            label={t('fields.username')}
            rules={[{ required: true, whitespace: true, message: t('validation.required') }, max(150), { pattern: USERNAME_PATTERN, message: t('validation.username') }]}
          >
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="user_type" label={t('fields.userType')}>
            <Select<UserType> options={USER_TYPES.map((type) => ({ value: type, label: t(`userTypes.${type}`) }))} />
          </Form.Item>
        </Col>
        {userType === 'supplier' ? (
          <Col xs={24}>
            <Form.Item name="parent_vendor" label={t('fields.parentVendor')} rules={[{ required: true, message: t('validation.parentVendor') }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={vendors.isLoading}
                options={[
                  ...(vendors.data ?? []).map((v) => ({ value: v.id, label: i18n.language === 'zh' && v.cname ? v.cname : v.name })),
                  ...(user.parent_vendor_detail && !(vendors.data ?? []).some((v) => v.id === user.parent_vendor)
                    ? [{ value: user.parent_vendor_detail.id, label: user.parent_vendor_detail.name }]
                    : []),
                ]}
              />
            </Form.Item>
          </Col>
        ) : null}
        {text('name', t('fields.name'), 200)}
        {text('profile_name', t('fields.profileName'), 200)}
        {text('first_name', t('fields.firstName'), 150)}
        {text('last_name', t('fields.lastName'), 150)}
        <Col xs={24} md={12}>
          <Form.Item name="email" label={t('fields.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
            <Input type="email" />
          </Form.Item>
        </Col>
        {text('phone', t('fields.phone'), 50)}
        {text('address', t('fields.address'), 300, 24)}
        {text('post_code', t('fields.postCode'), 32, 8)}
        {text('city', t('fields.city'), 120, 8)}
        {text('country', t('fields.country'), 120, 8)}
        <Col xs={24} md={8}>
          <Form.Item name="language" label={t('fields.language')}>
            <Select
              options={[
                { value: '', label: t('languages.default') },
                { value: 'zh', label: t('common:languages.zh') },
                { value: 'en', label: t('common:languages.en') },
              ]}
            />
          </Form.Item>
        </Col>
        {text('visma_id', t('fields.vismaId'), 64, 8)}
        {text('visma_owner_id', t('fields.vismaOwnerId'), 64, 8)}
        {text('visma_code', t('fields.vismaCode'), 64, 8)}
      </Row>
      {formError ? <Alert type="error" showIcon title={formError} className={styles.alert} /> : null}
      {!readOnly ? (
        <Flex justify="flex-end">
          <Button type="primary" htmlType="submit" loading={submitting}>
            {t('detail.save')}
          </Button>
        </Flex>
      ) : null}
    </Form>
  );
}
