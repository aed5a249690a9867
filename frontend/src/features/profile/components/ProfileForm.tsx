import { Alert, App, Button, Col, Flex, Form, Input, Row, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@/api/types';
import { changeLanguage } from '@/i18n';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { setUserInfo } from '@/shared/session/sessionStore';
import { updateProfile, type ProfileInput } from '../api/profile';
import styles from '../pages/ProfilePage.module.css';

function toValues(user: UserInfo): ProfileInput {
  return {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    name: user.name ?? '',
    profile_name: user.profile_name ?? '',
    email: user.email ?? '',
    phone: (user as UserInfo & { phone?: string }).phone ?? '',
    address: user.address ?? '',
    city: user.city ?? '',
    country: user.country ?? '',
    post_code: user.post_code ?? '',
    language: user.language ?? '',
  };
}

/** Names, contact details and language of the signed-in user. */
export function ProfileForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesGuard(dirty);
  const { form, onFinish, submitting, formError } = useApiForm<ProfileInput, UserInfo>({
    submit: (values) => updateProfile(values),
    onSuccess: (saved) => {
      setDirty(false);
      setUserInfo(saved);
      if (saved.language === 'zh' || saved.language === 'en') void changeLanguage(saved.language);
      void message.success(t('edit.saved'));
    },
  });
  const max = (n: number) => ({ max: n, message: t('validation.maxLength', { count: n }) });
  const text = (name: keyof ProfileInput, limit: number, span = 12) => (
    <Col xs={24} md={span}>
      <Form.Item name={name} label={t(`edit.fields.${name}`)} rules={[max(limit)]}>
        <Input />
      </Form.Item>
    </Col>
  );

  return (
    <Form<ProfileInput> form={form} layout="vertical" initialValues={toValues(user)} onFinish={(values) => void onFinish(values)} onValuesChange={() => setDirty(true)}>
      <Row gutter={16}>
        {text('name', 200)}
        {text('profile_name', 200)}
        {text('first_name', 150)}
        {text('last_name', 150)}
        <Col xs={24} md={12}>
          <Form.Item name="email" label={t('edit.fields.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
            <Input type="email" />
          </Form.Item>
        </Col>
        {text('phone', 50)}
        {text('address', 300, 24)}
        {text('post_code', 32, 8)}
        {text('city', 120, 8)}
        {text('country', 120, 8)}
        <Col xs={24} md={8}>
          <Form.Item name="language" label={t('edit.fields.language')}>
            <Select
              options={[
                { value: '', label: t('edit.browserLanguage') },
                { value: 'zh', label: t('common:languages.zh') },
                { value: 'en', label: t('common:languages.en') },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
      {formError ? <Alert type="error" showIcon title={formError} className={styles.alert} /> : null}
      <Flex justify="flex-end">
        <Button type="primary" htmlType="submit" loading={submitting} disabled={!dirty}>
          {t('edit.save')}
        </Button>
      </Flex>
    </Form>
  );
}
