import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from './ErrorState';
import { PageContainer } from './PageContainer';

/** What the shell reads of a TanStack query (a `useQuery` result fits). */
export interface DetailQuery<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  refetch: () => unknown;
}

/** A header part: a node, or one made from the loaded record. */
type FromRecord<T> = ReactNode | ((record: T) => ReactNode);

interface Props<T> {
  query: DetailQuery<T>;
  /** The route's parameter cannot name a record (not a number): "not found" without asking the server. */
  invalid?: boolean;
  /** The list to go back to: a path of src/shared/routing/paths.ts. */
  backTo: string;
  backLabel: ReactNode;
  backTestId?: string;
  /** The back button at the head of the actions, in every state (else only on the not-found state). */
  backInHeader?: boolean;
  /** The title of the not-found state (a 404 from the server, or an invalid parameter). */
  notFound: ReactNode;
  notFoundTestId?: string;
  /** The title while loading and on the error states; the route's title when not given. */
  pendingTitle?: ReactNode;
  /**
   * The loaded page's title, its status tags beside it and its actions. Without a title the loaded state
   * is `children(record)` alone: a view that draws its own header (its actions need hooks of its own)
   * puts it in a PageContainer itself.
   */
  title?: FromRecord<T>;
  tags?: FromRecord<T>;
  extra?: FromRecord<T>;
  children: (record: T) => ReactNode;
}

const fromRecord = <T,>(part: FromRecord<T> | undefined, record: T): ReactNode => (typeof part === 'function' ? part(record) : part);

/**
 * The frame of every detail page: back to the list, the title with its status tags, the actions, and
 * the loading, error (with retry) and not-found states of the record's query. Every state keeps the
 * page's one heading (PageContainer).
 */
export function DetailPage<T>({
  query,
  invalid = false,
  backTo,
  backLabel,
  backTestId,
  backInHeader = false,
  notFound,
  notFoundTestId = 'document-not-found',
  pendingTitle,
  title,
  tags,
  extra,
  children,
}: Props<T>) {
  const navigate = useNavigate();
  const back = (
    <Button icon={backInHeader ? <ArrowLeftOutlined /> : undefined} onClick={() => void navigate(backTo)} data-testid={backTestId}>
      {backLabel}
    </Button>
  );
  const headerBack = backInHeader ? back : undefined;

  if (invalid || (isApiError(query.error) && query.error.status === 404)) {
    return (
      <PageContainer title={pendingTitle} extra={headerBack}>
        <Result status="404" title={notFound} extra={backInHeader ? undefined : back} data-testid={notFoundTestId} />
      </PageContainer>
    );
  }
  if (query.isError) {
    return (
      <PageContainer title={pendingTitle} extra={headerBack}>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </PageContainer>
    );
  }
  if (query.data === undefined) {
    return (
      <PageContainer title={pendingTitle} extra={headerBack}>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  const record = query.data;
  if (title === undefined) return <>{children(record)}</>;
  const tagNodes = fromRecord(tags, record);
  const actions = fromRecord(extra, record);
  return (
    <PageContainer
      title={
        tagNodes ? (
          <Flex gap="small" align="center" wrap>
            {fromRecord(title, record)} {tagNodes}
          </Flex>
        ) : (
          fromRecord(title, record)
        )
      }
      extra={
        headerBack || actions ? (
          <>
            {headerBack}
            {actions}
          </>
        ) : undefined
      }
    >
      {children(record)}
    </PageContainer>
  );
}
