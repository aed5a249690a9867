import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Card, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';

interface Props<T> {
  query: UseQueryResult<T>;
  /** The route's id is not a number: "not found" without asking the server. */
  invalid?: boolean;
  /** The text of the "not found" page (a 404 from the server, or an invalid id). */
  notFound: string;
  /** Where "Back to the list" goes. */
  listPath: string;
  children: (document: T) => ReactNode;
}

/** The loading, not-found and error states of a sales document's page (an order, its edit page, an
 * invoice, a delivery line); once loaded, `children(document)`. */
export function DocumentLoader<T>({ query, invalid = false, notFound, listPath, children }: Props<T>) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  if (invalid || (isApiError(query.error) && query.error.status === 404)) {
    return (
      <PageContainer>
        <Result
          status="404"
          title={notFound}
          extra={<Button onClick={() => void navigate(listPath)}>{t('detail.backToList')}</Button>}
          data-testid="document-not-found"
        />
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
  if (query.data === undefined) {
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
