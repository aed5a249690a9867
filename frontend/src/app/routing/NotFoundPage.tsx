import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import styles from './routing.module.css';
import { paths } from '@/shared/routing/paths';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className={`${CSS_VAR_CLASS} ${styles.fullPage}`} data-testid="not-found">
      <Result
        status="404"
        title={<h1 className={styles.resultTitle}>{t('notFound.title')}</h1>}
        subTitle={t('notFound.description')}
        extra={
          <Link to={paths.home()}>
            <Button type="primary">{t('actions.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
