import { Card } from 'antd';
import type { ReactNode } from 'react';
import { PageContainer } from './PageContainer';
import { ServerTable, type ServerTableProps } from './ServerTable';

interface Props<T> extends ServerTableProps<T> {
  /** Defaults to the route's title. */
  title?: ReactNode;
}

/** A whole list page: the route's title and a ServerTable in a card. */
export function ListPage<T extends object>({ title, ...table }: Props<T>) {
  return (
    <PageContainer title={title}>
      <Card>
        <ServerTable<T> {...table} />
      </Card>
    </PageContainer>
  );
}
