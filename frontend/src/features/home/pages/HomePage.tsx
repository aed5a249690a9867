import { ArrowRightOutlined, InfoCircleFilled } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { displayName } from '@/shared/session/userNames';
import { userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { useDashboard } from '../api/dashboard';
import { SHORTCUTS, countLink, humanizeKey } from '../dashboardLinks';
import styles from './HomePage.module.css';

/** Counts as Ant Design's Statistic showed them: digits grouped with commas. */
const NUMBER = new Intl.NumberFormat('en-US');

/**
 * Home: counts of the areas this user may view, and shortcuts for the user's kind of work. Plain elements
 * styled with the theme's variables: Ant Design's Statistic, Row and Col, Alert, Empty and Skeleton were
 * a tenth of the first signed-in page's code (docs/performance.md).
 */
export default function HomePage() {
  const { t, i18n } = useTranslation(['home', 'nav']);
  const user = useSession((s) => s.userInfo);
  const type = user ? userTypeOf(user) : 'internal';
  const dashboard = useDashboard();
  const counts = Object.entries(dashboard.data?.counts ?? {});
  // A company with no records yet (a new tenant, or the demo's empty Sandbox): say so and where to go.
  const emptyCompany = type === 'internal' && counts.length > 0 && counts.every(([, value]) => value === 0);

  return (
    <PageContainer title={t('home:welcome', { name: displayName(user) })}>
      <p className={styles.intro}>{t(`home:intro.${type}`)}</p>
      {emptyCompany ? (
        <div className={styles.emptyCompany} role="status" data-testid="home-empty-company">
          <InfoCircleFilled className={styles.emptyCompanyIcon} />
          <div>
            <div className={styles.emptyCompanyTitle}>{t('home:emptyCompany.title')}</div>
            <div>{t('home:emptyCompany.description')}</div>
          </div>
        </div>
      ) : null}

      <h2 className={styles.section}>{t('home:shortcuts')}</h2>
      <div className={styles.shortcuts} data-testid="home-shortcuts">
        {SHORTCUTS[type].map((shortcut) => (
          <Link key={shortcut.to} to={shortcut.to}>
            <Button icon={<ArrowRightOutlined />}>{t(`nav:${shortcut.label}`)}</Button>
          </Link>
        ))}
      </div>

      <h2 className={styles.section}>{t('home:overview')}</h2>
      {dashboard.isPending ? (
        <div className={styles.loading}>
          <Spin aria-label={t('common:states.loading')} />
        </div>
      ) : dashboard.isError ? (
        <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : counts.length === 0 ? (
        <div className={styles.card}>
          <p className={styles.noCounts}>{t('home:noCounts')}</p>
        </div>
      ) : (
        <div className={styles.counts} data-testid="home-counts">
          {counts.map(([key, value]) => {
            const to = countLink(key, type);
            const label = i18n.exists(`home:counts.${key}`) ? t(`home:counts.${key}`) : humanizeKey(key);
            return (
              <div key={key} className={`${styles.card} ${styles.countCard}`}>
                <div className={styles.countTitle}>{label}</div>
                <div className={styles.countValue}>{NUMBER.format(value)}</div>
                {to ? (
                  <Link to={to} className={styles.open}>
                    {t('home:open')} <ArrowRightOutlined />
                  </Link>
                ) : null}
              </div>
            );
          })}
        </div>
      )}
    </PageContainer>
  );
}
