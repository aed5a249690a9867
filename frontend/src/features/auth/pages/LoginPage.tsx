import { CloseCircleFilled, EyeInvisibleOutlined, EyeOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useId, useRef, useState, type SyntheticEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { isSafeRedirect } from '@/api/publicRoutes';
import { AppLogo } from '@/shared/components/AppLogo';
import { LanguageSwitcher } from '@/shared/components/LanguageSwitcher';
import { getSession } from '@/shared/session/sessionStore';
import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import { useSession } from '@/shared/session/useSession';
import { login, type Credentials } from '../api/session';
import styles from './LoginPage.module.css';
import { paths } from '@/shared/routing/paths';

function redirectTarget(params: URLSearchParams): string {
  const target = params.get('redirect');
  return isSafeRedirect(target) ? target : paths.home();
}

type Field = 'username' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

/**
 * The sign-in form: plain, labelled form controls styled with the theme's CSS variables. Ant Design's
 * Form, Input, Checkbox and Alert would bring its form store, async validator, text area and OTP input
 * into the first page (docs/performance.md). Validation as the form had it: both fields on submit, then
 * each field again as it changes; a username of spaces is empty.
 */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const signedIn = useSession((s) => Boolean(s.accessToken));
  const [values, setValues] = useState<Credentials>(() => ({
    username: getSession().username ?? '',
    password: '',
    remember: getSession().rememberUser,
  }));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [validated, setValidated] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const id = useId();

  if (signedIn && !submitting && !done) return <Navigate to={redirectTarget(params)} replace />;

  const validate = (next: Credentials): FieldErrors => ({
    ...(next.username.trim() ? {} : { username: t('usernameRequired') }),
    ...(next.password ? {} : { password: t('passwordRequired') }),
  });

  const change = (patch: Partial<Credentials>) => {
    const next = { ...values, ...patch };
    setValues(next);
    setError(null);
    if (validated) setFieldErrors(validate(next));
  };

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const errors = validate(values);
    setValidated(true);
    setFieldErrors(errors);
    const firstInvalid = (['username', 'password'] as const).find((field) => errors[field]);
    if (firstInvalid) {
      (firstInvalid === 'username' ? usernameInput : passwordInput).current?.focus();
      return;
    }
    setSubmitting(true);
    setError(null);
    const result = await login(values);
    setSubmitting(false);
    if (result.success) {
      setDone(true);
      void navigate(redirectTarget(params), { replace: true });
    } else {
      setError(result.network ? t(navigator.onLine ? 'networkError' : 'offline') : result.message);
    }
  };

  const field = (name: Field, label: string, control: ReactNode) => (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={name}>
        {label}
      </label>
      {control}
      {fieldErrors[name] ? (
        <div id={`${id}-${name}-error`} className={styles.fieldError} role="alert">
          {fieldErrors[name]}
        </div>
      ) : null}
    </div>
  );

  const inputProps = (name: Field) => ({
    id: name,
    name,
    className: styles.input,
    disabled: submitting,
    'aria-required': true,
    'aria-invalid': fieldErrors[name] ? true : undefined,
    'aria-describedby': fieldErrors[name] ? `${id}-${name}-error` : undefined,
  });

  // The theme's CSS variables are defined under its class: without it on the page's root, the fields
  // had no border and the text fell back to the browser's serif font.
  return (
    <div className={`${CSS_VAR_CLASS} ${styles.screen}`} data-testid="login-page">
      <div className={styles.language}>
        <LanguageSwitcher />
      </div>
      {/* Plain elements styled like a card and its title: antd's Card and Typography would bring tabs,
          tooltips and text areas into the first page (docs/performance.md). */}
      <main className={styles.card}>
        <div className={styles.heading}>
          <AppLogo size={48} />
          <h1 className={styles.title}>{t('title')}</h1>
          <p className={styles.subtitle}>{t('subtitle')}</p>
        </div>
        <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid="login-form" className={styles.form}>
          {field(
            'username',
            t('username'),
            <span className={styles.affix} data-invalid={fieldErrors.username ? true : undefined} data-disabled={submitting || undefined}>
              <UserOutlined className={styles.prefix} />
              <input
                {...inputProps('username')}
                ref={usernameInput}
                type="text"
                autoComplete="username"
                // the one thing to do on this page
                autoFocus
                value={values.username}
                onChange={(event) => change({ username: event.target.value })}
              />
            </span>,
          )}
          {field(
            'password',
            t('password'),
            <span className={styles.affix} data-invalid={fieldErrors.password ? true : undefined} data-disabled={submitting || undefined}>
              <LockOutlined className={styles.prefix} />
              <input
                {...inputProps('password')}
                ref={passwordInput}
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                value={values.password}
                onChange={(event) => change({ password: event.target.value })}
              />
              <button
                type="button"
                className={styles.reveal}
                aria-label={showPassword ? t('hidePassword') : t('showPassword')}
                aria-pressed={showPassword}
                onClick={() => setShowPassword((shown) => !shown)}
                disabled={submitting}
              >
                {showPassword ? <EyeOutlined /> : <EyeInvisibleOutlined />}
              </button>
            </span>,
          )}
          <div className={styles.field}>
            <label className={styles.remember} htmlFor="remember">
              <input
                id="remember"
                name="remember"
                type="checkbox"
                checked={values.remember}
                disabled={submitting}
                onChange={(event) => change({ remember: event.target.checked })}
              />
              {t('rememberMe')}
            </label>
          </div>
          {error ? (
            <div className={styles.error} role="alert" data-testid="login-error">
              <CloseCircleFilled className={styles.errorIcon} />
              <span>{error}</span>
            </div>
          ) : null}
          <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
            {t('submit')}
          </Button>
        </form>
      </main>
    </div>
  );
}
