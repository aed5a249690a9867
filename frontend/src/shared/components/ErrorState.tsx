import { WarningFilled } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import styles from './ErrorState.module.css';

interface Props {
  error: unknown;
  onRetry?: () => void;
}

/**
 * A failed load: what went wrong (the server's words) and a retry. Drawn like antd's warning Result
 * without it: Result carries its large status illustrations into every page that may show an error.
 */
export function ErrorState({ error, onRetry }: Props) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Flex vertical align="center" gap="small" className={styles.state} data-testid="error-state">
      <WarningFilled className={styles.icon} aria-hidden />
      <div className={styles.title}>{t('states.loadFailed')}</div>
      <div className={styles.detail}>{errorText(error)}</div>
      {onRetry ? <Button onClick={onRetry}>{t('actions.retry')}</Button> : null}
    </Flex>
  );
}
