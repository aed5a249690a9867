import { Drawer, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useDrill, type ReportDefinition } from '../api/reportLab';
import type { CellValue } from './reportModel';

interface Props {
  definition: ReportDefinition;
  cell: Record<string, CellValue> | null;
  title: string;
  onClose: () => void;
}

const PAGE_SIZE = 20;

/** The records behind one figure of the report, page by page from the server. */
export function DrillDrawer({ definition, cell, title, onClose }: Props) {
  const { t } = useTranslation('reports');
  const [page, setPage] = useState(1);
  const drill = useDrill(definition, cell, page, PAGE_SIZE);
  const columns = (drill.data?.columns ?? []).map((c) => ({ key: c.key, dataIndex: c.key, title: c.label }));
  return (
    <Drawer open={cell !== null} onClose={onClose} title={title} size="large" destroyOnHidden>
      {drill.isError ? (
        <ErrorState error={drill.error} onRetry={() => void drill.refetch()} />
      ) : (
        <Table
          size="small"
          rowKey={(_, index) => String(index)}
          loading={drill.isFetching}
          columns={columns}
          dataSource={drill.data?.results ?? []}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: drill.isFetching ? t('loading') : t('noRecords') }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: drill.data?.count ?? 0,
            showSizeChanger: false,
            onChange: setPage,
            showTotal: (total) => t('recordsCount', { count: total }),
          }}
        />
      )}
    </Drawer>
  );
}
