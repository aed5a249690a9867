import { ToolOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageContainer } from './PageContainer';
import { paths } from '@/shared/routing/paths';

/**
 * The empty state of a page whose area is not built yet: titled like its route, it says so plainly
 * and offers the way home. Feature work replaces the page module that renders this.
 */
export function FeaturePlaceholder() {
  const { t } = useTranslation();
  return (
    <PageContainer>
      <Card>
        <Result
          icon={<ToolOutlined />}
          title={t('placeholder.title')}
          subTitle={t('placeholder.description')}
          extra={
            <Link to={paths.home()}>
              <Button type="primary">{t('actions.backHome')}</Button>
            </Link>
          }
          data-testid="feature-placeholder"
        />
      </Card>
    </PageContainer>
  );
}
