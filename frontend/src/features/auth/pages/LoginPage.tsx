import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { isSafeRedirect } from '@/api/publicRoutes';
import { LanguageSwitcher } from '@/shared/components/LanguageSwitcher';
import { AppLogo } from '@/shared/components/AppLogo';
import { getSession } from '@/shared/session/sessionStore';
import { useSession } from '@/shared/session/useSession';
import { login, type Credentials } from '../api/session';
import styles from './LoginPage.module.css';

function redirectTarget(params: URLSearchParams): string {
  const target = params.get('redirect');
  return isSafeRedirect(target) ? target : '/';
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const signedIn = useSession((s) => Boolean(s.accessToken));
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  if (signedIn && !submitting && !done) return <Navigate to={redirectTarget(params)} replace />;

  const onFinish = async (values: Credentials) => {
    setSubmitting(true);
    setError(null);
    const result = await login(values);
    setSubmitting(false);
    if (result.success) {
      setDone(true);
      void navigate(redirectTarget(params), { replace: true });
    } else {
      setError(result.network ? t('networkError') : result.message);
    }
  };

  return (
    <div className={styles.screen}>
      <div className={styles.language}>
        <LanguageSwitcher />
      </div>
      <Card className={styles.card}>
        <Flex vertical align="center" gap="small" className={styles.heading}>
          <AppLogo size={48} />
          <Typography.Title level={1} className={styles.title}>
            {t('title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('subtitle')}</Typography.Text>
        </Flex>
        <Form<Credentials>
          layout="vertical"
          requiredMark={false}
          initialValues={{ username: getSession().username ?? '', password: '', remember: getSession().rememberUser }}
          onFinish={(values) => void onFinish(values)}
          onValuesChange={() => setError(null)}
          disabled={submitting}
          data-testid="login-form"
        >
          <Form.Item name="username" label={t('username')} rules={[{ required: true, whitespace: true, message: t('usernameRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus size="large" />
          </Form.Item>
          <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
          </Form.Item>
          <Form.Item name="remember" valuePropName="checked">
            <Checkbox>{t('rememberMe')}</Checkbox>
          </Form.Item>
          {error ? <Alert type="error" showIcon title={error} className={styles.error} role="alert" data-testid="login-error" /> : null}
          <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
            {t('submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
