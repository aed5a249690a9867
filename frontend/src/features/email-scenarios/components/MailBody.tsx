import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './email.module.css';

interface Props {
  html: string;
  text: string;
  /** Accessible name of the HTML frame. */
  label: string;
}

/**
 * The HTML body in a sandboxed frame (no scripts, no forms, no same-origin access: it is shown, never
 * run) and the plain-text body, as tabs.
 */
export function MailBody({ html, text, label }: Props) {
  const { t } = useTranslation('email');
  return (
    <Tabs
      size="small"
      items={[
        {
          key: 'html',
          label: t('body.html'),
          children: html ? (
            <iframe title={label} sandbox="" srcDoc={html} className={styles.frame} data-testid="mail-html" />
          ) : (
            <Typography.Text type="secondary">{t('body.noHtml')}</Typography.Text>
          ),
        },
        {
          key: 'text',
          label: t('body.text'),
          children: (
            <pre className={styles.text} data-testid="mail-text">
              {text}
            </pre>
          ),
        },
      ]}
    />
  );
}
