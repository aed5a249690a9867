import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';

interface Props {
  error: unknown;
  onRetry?: () => void;
}

/** A failed load: what went wrong (the server's words) and a retry. */
export function ErrorState({ error, onRetry }: Props) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Result
      status="warning"
      title={t('states.loadFailed')}
      subTitle={errorText(error)}
      extra={onRetry ? <Button onClick={onRetry}>{t('actions.retry')}</Button> : undefined}
    />
  );
}
