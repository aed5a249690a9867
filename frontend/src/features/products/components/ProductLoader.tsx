import { Card, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useProduct } from '../api/products';
import type { Product } from '../api/types';

/** Loads the product of the route; shows loading, "not found" and error states, else `children(product)`. */
export function ProductLoader({ id, children }: { id: string | undefined; children: (product: Product) => ReactNode }) {
  const { t } = useTranslation('products');
  const query = useProduct(id);
  const notFound = !id || !/^\d+$/.test(id) || (isApiError(query.error) && query.error.status === 404);
  if (notFound) {
    return (
      <PageContainer>
        <Card>
          <Result status="404" title={t('detail.notFound')} />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError) {
    return (
      <PageContainer>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </PageContainer>
    );
  }
  if (!query.data) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  return <>{children(query.data)}</>;
}
