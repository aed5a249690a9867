import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Empty, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { isSettled } from '@/shared/printing/printApi';
import { useSession } from '@/shared/session/useSession';
import { recentJobsQueryOptions, reprintJob, useInvalidatePrinting, type PrintJob } from '../api/printing';
import { formatDateTime, reportedState } from '../lib/format';
import { JobStatusTag, PrinterStateTag } from './StatusTags';

interface Props {
  printer?: number;
  title?: string;
}

/**
 * The print log, newest first, paged by the server; refreshed every 2 s while a job is still on its
 * way. Printing a job again is a new job: the same print when the job printed nothing, else a copy
 * that says "copy N".
 */
export function RecentJobs({ printer, title }: Props) {
  const { t, i18n } = useTranslation('printing');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidatePrinting();
  const tenant = useSession((s) => s.tenantId);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const params = { page, page_size: pageSize, ordering: '-created_at', ...(printer ? { printer } : {}) };
  const query = useQuery({
    ...recentJobsQueryOptions(tenant, params),
    refetchInterval: (q) => (q.state.data?.results.some((job) => !isSettled(job.status)) ? 2000 : 15000),
  });

  const reprint = async (job: PrintJob) => {
    try {
      const copy = await reprintJob(job.id);
      void message.success(
        job.printed_nothing ? t('jobs.reprintedSame', { id: copy.id, of: job.id }) : t('jobs.reprinted', { id: copy.id, copy: copy.copy_number }),
      );
      void invalidate();
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const columns: TableProps<PrintJob>['columns'] = [
    { title: '#', dataIndex: 'id', width: 70 },
    { title: t('jobs.created'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v, i18n.language) },
    { title: t('jobs.printer'), dataIndex: 'printer_name', responsive: ['md'] },
    {
      title: t('jobs.source'),
      key: 'source',
      render: (_: unknown, job) => (
        <>
          {job.source_display}
          {job.copy_number > 1 ? <Typography.Text type="secondary"> · {t('jobs.copy', { n: job.copy_number })}</Typography.Text> : null}
        </>
      ),
    },
    { title: t('jobs.labels'), dataIndex: 'label_count', align: 'right', responsive: ['md'] },
    {
      title: t('jobs.status'),
      key: 'status',
      render: (_: unknown, job) => (
        <>
          <JobStatusTag status={job.status} />
          {job.waits_for_agent ? (
            <Tag color="warning" data-testid="job-waits">
              {t('jobs.waitsForAgent')}
            </Tag>
          ) : null}
        </>
      ),
    },
    {
      title: t('jobs.printerState'),
      key: 'state',
      responsive: ['lg'],
      render: (_: unknown, job) => {
        const state = reportedState(job.printer_status);
        return state ? <PrinterStateTag state={state} /> : '—';
      },
    },
    { title: t('jobs.error'), dataIndex: 'error', responsive: ['lg'], render: (v: string) => v || '—' },
    { title: t('jobs.user'), dataIndex: 'user_name', responsive: ['xl'] },
    {
      title: t('jobs.actions'),
      key: 'actions',
      render: (_: unknown, job) =>
        job.source === 'carton_labels' || job.source === 'test_label' ? (
          // A job that printed nothing is printed again as the same print; any other gets a copy ("COPY N").
          <Button
            size="small"
            onClick={() => void reprint(job)}
            aria-label={job.printed_nothing ? t('jobs.reprintSameJob', { id: job.id }) : t('jobs.reprintCopyJob', { id: job.id })}
            data-testid="job-reprint"
          >
            {job.printed_nothing ? t('jobs.reprintSame') : t('jobs.reprintCopy')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Card
      size="small"
      title={title ?? t('jobs.title')}
      extra={<Button size="small" icon={<ReloadOutlined />} onClick={() => void query.refetch()} aria-label={t('jobs.refresh')} />}
      data-testid="print-jobs"
    >
      {query.isError && !query.data ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<PrintJob>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={query.data?.results ?? []}
          loading={query.isLoading}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('jobs.empty')} /> }}
          pagination={{
            current: page,
            pageSize,
            total: query.data?.count ?? 0,
            size: 'small',
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            onChange: (next, size) => {
              setPage(size === pageSize ? next : 1);
              setPageSize(size);
            },
          }}
        />
      )}
    </Card>
  );
}
