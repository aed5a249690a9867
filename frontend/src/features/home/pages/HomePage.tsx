import { ArrowRightOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Flex, Row, Skeleton, Statistic, Typography } from 'antd';
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

  return (
    <PageContainer title={t('home:welcome', { name: displayName(user) })}>
      <Typography.Paragraph type="secondary">{t(`home:intro.${type}`)}</Typography.Paragraph>

      <Typography.Title level={5}>{t('home:shortcuts')}</Typography.Title>
      <Flex wrap gap="small" className={styles.shortcuts} data-testid="home-shortcuts">
        {SHORTCUTS[type].map((shortcut) => (
          <Link key={shortcut.to} to={shortcut.to}>
            <Button icon={<ArrowRightOutlined />}>{t(`nav:${shortcut.label}`)}</Button>
          </Link>
        ))}
      </Flex>

      <Typography.Title level={5}>{t('home:overview')}</Typography.Title>
      {dashboard.isPending ? (
        <Skeleton active />
      ) : dashboard.isError ? (
        <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : counts.length === 0 ? (
        <Card>
          <Empty description={t('home:noCounts')} />
        </Card>
      ) : (
        <Row gutter={[16, 16]} data-testid="home-counts">
          {counts.map(([key, value]) => {
            const to = countLink(key, type);
            const label = i18n.exists(`home:counts.${key}`) ? t(`home:counts.${key}`) : humanizeKey(key);
            return (
              <Col key={key} xs={24} sm={12} md={8} xl={6}>
                <Card className={styles.countCard}>
                  <Statistic title={label} value={value} />
                  {to ? (
                    <Link to={to} className={styles.open}>
                      {t('home:open')} <ArrowRightOutlined />
                    </Link>
                  ) : null}
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
    </PageContainer>
  );
}
