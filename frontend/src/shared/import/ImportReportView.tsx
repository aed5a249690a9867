import { Alert, Flex, Statistic, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ImportReport, ImportRowError } from './importApi';
import styles from './ImportDialog.module.css';

interface Props {
  report: ImportReport;
}

/** The outcome of a dry run or an import: counts, then every row error (row, column, message). */
export function ImportReportView({ report }: Props) {
  const { t } = useTranslation('dataImport');
  const hasErrors = report.errors.length > 0;
  const committed = !report.dry_run;
  return (
    <Flex vertical gap="middle" data-testid="import-report">
      <Flex wrap gap="large" className={styles.stats}>
        <Statistic title={t('report.rowsTotal')} value={report.rows_total} />
        <Statistic title={t('report.rowsValid')} value={report.rows_valid} />
        <Statistic title={t('report.rowsInvalid')} value={report.rows_invalid} />
        <Statistic title={committed ? t('report.created') : t('report.toCreate')} value={committed ? report.created : report.to_create} />
        <Statistic title={committed ? t('report.updated') : t('report.toUpdate')} value={committed ? report.updated : report.to_update} />
      </Flex>
      {report.ignored_columns.length > 0 ? (
        <Alert
          type="info"
          showIcon
          title={t('report.ignoredColumns', { columns: report.ignored_columns.join(', ') })}
        />
      ) : null}
      {hasErrors ? (
        <>
          <Alert
            type="error"
            showIcon
            title={t('report.errorsTitle', { count: report.rows_invalid })}
            description={report.errors_truncated ? t('report.truncated', { count: report.errors.length }) : t('report.nothingWritten')}
          />
          <Table<ImportRowError>
            size="small"
            data-testid="import-errors"
            rowKey={(error) => `${error.row}-${error.field}-${error.message}`}
            dataSource={report.errors}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: t('report.row'), dataIndex: 'row', width: 80 },
              {
                title: t('report.column'),
                dataIndex: 'column',
                render: (_: unknown, error) => <Tag>{error.column || error.field || t('report.wholeRow')}</Tag>,
              },
              {
                title: t('report.message'),
                dataIndex: 'message',
                render: (message: string) => <Typography.Text type="danger">{message}</Typography.Text>,
              },
            ]}
          />
        </>
      ) : report.dry_run ? (
        <Alert type="success" showIcon title={t('report.allValid', { count: report.rows_valid })} />
      ) : (
        <Alert type="success" showIcon title={t('report.imported', { created: report.created, updated: report.updated })} />
      )}
    </Flex>
  );
}
