import { ArrowRightOutlined } from '@ant-design/icons';
import { Alert, Button, Col, Empty, Flex, Row, Skeleton, Statistic } from 'antd';
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

/** Home: counts of the areas this user may view, and shortcuts for the user's kind of work. */
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
        <Alert
          type="info"
          showIcon
          className={styles.emptyCompany}
          title={t('home:emptyCompany.title')}
          description={t('home:emptyCompany.description')}
          data-testid="home-empty-company"
        />
      ) : null}

      <h2 className={styles.section}>{t('home:shortcuts')}</h2>
      <Flex wrap gap="small" className={styles.shortcuts} data-testid="home-shortcuts">
        {SHORTCUTS[type].map((shortcut) => (
          <Link key={shortcut.to} to={shortcut.to}>
            <Button icon={<ArrowRightOutlined />}>{t(`nav:${shortcut.label}`)}</Button>
          </Link>
        ))}
      </Flex>

      <h2 className={styles.section}>{t('home:overview')}</h2>
      {dashboard.isPending ? (
        <Skeleton active />
      ) : dashboard.isError ? (
        <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : counts.length === 0 ? (
        <div className={styles.card}>
          <Empty description={t('home:noCounts')} />
        </div>
      ) : (
        <Row gutter={[16, 16]} data-testid="home-counts">
          {counts.map(([key, value]) => {
            const to = countLink(key, type);
            const label = i18n.exists(`home:counts.${key}`) ? t(`home:counts.${key}`) : humanizeKey(key);
            return (
              <Col key={key} xs={24} sm={12} md={8} xl={6}>
                <div className={`${styles.card} ${styles.countCard}`}>
                  <Statistic title={label} value={value} />
                  {to ? (
                    <Link to={to} className={styles.open}>
                      {t('home:open')} <ArrowRightOutlined />
                    </Link>
                  ) : null}
                </div>
              </Col>
            );
          })}
        </Row>
      )}
    </PageContainer>
  );
}
