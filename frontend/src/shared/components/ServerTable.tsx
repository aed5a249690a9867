import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Dropdown, Empty, Flex, Input, Table } from 'antd';
import type { TableProps } from 'antd';
import type { ColumnType, SorterResult } from 'antd/es/table/interface';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '@/api/http';
import { listPageQueryOptions } from '@/api/queries';
import { useErrorText } from '@/shared/errors/errorText';
import { usePhone } from '@/shared/hooks/usePhone';
import { useListParams, type UseListParams, type UseListParamsOptions } from '@/shared/hooks/useListParams';
import { formatCount } from '@/shared/utils/format';
import { saveBlob } from '@/shared/utils/saveFile';
import { ErrorState } from './ErrorState';
import styles from './ServerTable.module.css';

export type ExportFormat = 'csv' | 'xlsx';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];

/** A column; `key` (or a string `dataIndex`) is the ordering field the server sorts by when `sorter` is true. */
export type ServerColumn<T> = ColumnType<T>;

export interface ServerTableProps<T> {
  /** The list endpoint with its trailing slash, e.g. `/api/products/`. */
  endpoint: string;
  columns: ServerColumn<T>[];
  rowKey: keyof T & string;
  /** Extra query key parts (e.g. a parent id) besides the endpoint and the list parameters. */
  queryKeyExtra?: readonly unknown[];
  listOptions?: UseListParamsOptions;
  /** Filter controls above the table, bound to the URL through the given list parameters. */
  filters?: (list: UseListParams) => ReactNode;
  /** Buttons at the right of the toolbar (e.g. "New"). */
  actions?: ReactNode;
  onRowClick?: (row: T) => void;
  /** Offer CSV/XLSX export of `<endpoint>export/` with the current filters (default true). */
  exportable?: boolean;
  /** File name stem for exports when the server does not name the file. */
  exportFileName?: string;
  searchable?: boolean;
  searchPlaceholder?: string;
  /** Ant Design table props passed through (scroll, size, expandable, rowSelection ...). */
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'loading' | 'pagination' | 'onChange' | 'rowKey'>;
}

function orderingField<T>(column: ServerColumn<T>): string | undefined {
  if (column.key !== undefined) return String(column.key);
  return typeof column.dataIndex === 'string' ? column.dataIndex : undefined;
}

/**
 * A server-side list: paging, sorting, search and filters all in the URL and sent to the endpoint;
 * loading, empty and error states; row click; export of the same selection as CSV or XLSX.
 */
export function ServerTable<T extends object>({
  endpoint,
  columns,
  rowKey,
  queryKeyExtra = [],
  listOptions,
  filters,
  actions,
  onRowClick,
  exportable = true,
  exportFileName,
  searchable = true,
  searchPlaceholder,
  tableProps,
}: ServerTableProps<T>) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const list = useListParams(listOptions);
  const [exporting, setExporting] = useState(false);
  const phone = usePhone();

  const query = useQuery(listPageQueryOptions<T>(endpoint, queryKeyExtra, list.apiParams));

  const controlledColumns = columns.map((column) => {
    const field = orderingField(column);
    const next: ServerColumn<T> = { ...column };
    if (column.sorter && field) {
      next.sortOrder =
        list.ordering === field ? 'ascend' : list.ordering === `-${field}` ? 'descend' : null;
    }
    if (column.filters && field) {
      const value = list.filters[field];
      next.filteredValue = value === undefined ? null : Array.isArray(value) ? value : [value];
    }
    return next;
  });

  const onChange: TableProps<T>['onChange'] = (pagination, tableFilters, sorter, extra) => {
    if (extra.action === 'paginate') {
      list.setPage(pagination.current ?? 1, pagination.pageSize);
      return;
    }
    if (extra.action === 'sort') {
      const single = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
      const field = single?.column ? orderingField(single.column) : undefined;
      if (!field || !single?.order) list.setOrdering(undefined);
      else list.setOrdering(single.order === 'descend' ? `-${field}` : field);
      return;
    }
    if (extra.action === 'filter') {
      const changes: Record<string, string[] | null> = {};
      for (const [key, value] of Object.entries(tableFilters)) {
        changes[key] = value && value.length > 0 ? value.map(String) : null;
      }
      list.setFilters(changes);
    }
  };

  const runExport = async (format: ExportFormat) => {
    setExporting(true);
    try {
      const { page: _page, page_size: _size, ...selection } = list.apiParams;
      const file = await download(`${endpoint}export/`, { params: { ...selection, format } });
      const stem = exportFileName ?? endpoint.split('/').filter(Boolean).pop() ?? 'export';
      saveBlob(file.blob, file.fileName ?? `${stem}.${format}`);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setExporting(false);
    }
  };

  if (query.isError && !query.data) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }

  return (
    <div className={styles.wrapper}>
      <Flex justify="space-between" align="center" wrap gap="small" className={styles.toolbar}>
        <Flex gap="small" wrap align="center">
          {searchable ? (
            <Input.Search
              key={list.search}
              allowClear
              defaultValue={list.search}
              placeholder={searchPlaceholder ?? t('table.searchPlaceholder')}
              onSearch={(value) => list.setSearch(value.trim())}
              className={styles.search}
              aria-label={t('actions.search')}
            />
          ) : null}
          {filters?.(list)}
        </Flex>
        <Flex gap="small" wrap>
          {exportable ? (
            <Dropdown
              menu={{
                items: EXPORT_FORMATS.map((format) => ({ key: format, label: t(`table.export.${format}`) })),
                onClick: ({ key }) => void runExport(key as ExportFormat),
              }}
            >
              <Button icon={<DownloadOutlined />} loading={exporting}>
                {t('table.export.label')}
              </Button>
            </Dropdown>
          ) : null}
          {actions}
        </Flex>
      </Flex>
      <Table<T>
        {...tableProps}
        // On a phone, the small table's narrower cell padding leaves the screen to the columns.
        size={phone ? 'small' : tableProps?.size}
        rowKey={rowKey}
        columns={controlledColumns}
        dataSource={query.data?.results ?? []}
        loading={query.isFetching}
        onChange={onChange}
        onRow={onRowClick ? (row) => ({ onClick: () => onRowClick(row), className: styles.clickable }) : undefined}
        locale={{
          // "Nothing here" only once the server said so for this selection; until then, loading.
          emptyText:
            query.isSuccess && !query.isPlaceholderData ? (
              <Empty description={list.search || Object.keys(list.filters).length > 0 ? t('table.noMatches') : t('table.empty')} />
            ) : (
              <div role="status" className={styles.loading} data-testid="table-loading">
                {t('states.loading')}
              </div>
            ),
        }}
        pagination={{
          current: list.page,
          pageSize: list.pageSize,
          // a bounded count (count_more): one row more than counted, so the next page can be chosen
          total: (query.data?.count ?? 0) + (query.data?.count_more ? 1 : 0),
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100, 200],
          showTotal: (total) =>
            query.data?.count_more
              ? t('table.totalMore', { total: formatCount(query.data.count, i18n.language) })
              : t('table.total', { count: total }),
        }}
        scroll={tableProps?.scroll ?? { x: 'max-content' }}
      />
    </div>
  );
}
