/** /reports/test (staff): per dataset, its rows, the time of a sample grouped query, and whether the
 * figures that must agree do (stock = sum of moves, used weight = active labels). */
import { CheckCircleTwoTone, CloseCircleTwoTone, ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Table, Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useChecks, type DatasetCheck } from '../api/reportLab';

export default function ReportTestPage() {
  const { t, i18n } = useTranslation('reports');
  const checks = useChecks();
  const { token } = theme.useToken();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <PageContainer
      extra={
        <Button icon={<ReloadOutlined />} loading={checks.isFetching} onClick={() => void checks.refetch()}>
          {t('runChecks')}
        </Button>
      }
    >
      {checks.isError ? (
        <ErrorState error={checks.error} onRetry={() => void checks.refetch()} />
      ) : (
        <Table<DatasetCheck>
          rowKey="dataset"
          loading={checks.isPending}
          dataSource={checks.data ?? []}
          pagination={false}
          locale={{ emptyText: checks.isPending ? t('loading') : t('noDatasets') }}
          columns={[
            { key: 'label', title: t('dataset'), dataIndex: 'label', width: 260 },
            { key: 'rows', title: t('rows'), align: 'right', width: 110, render: (_, row) => number.format(row.rows) },
            {
              key: 'ms',
              title: t('sampleQuery'),
              align: 'right',
              width: 150,
              // A measured time: it differs on every run. The pictures mask it, as wide as its cell whatever
              // its digits, and the column keeps its width.
              render: (_, row) => (
                <span data-volatile style={{ display: 'inline-block', width: '100%' }}>
                  {t('milliseconds', { ms: row.sample_ms })}
                </span>
              ),
            },
            {
              key: 'checks',
              title: t('checks'),
              render: (_, row) =>
                row.checks.length === 0 ? (
                  <Tag>{t('noChecks')}</Tag>
                ) : (
                  <Flex vertical gap={2}>
                    {row.checks.map((check) => (
                      <span key={check.name}>
                        {check.ok ? <CheckCircleTwoTone twoToneColor={token.colorSuccess} /> : <CloseCircleTwoTone twoToneColor={token.colorError} />}{' '}
                        {check.name}
                        {check.ok ? '' : ` · ${t('failures', { count: check.failures })}`}
                      </span>
                    ))}
                  </Flex>
                ),
            },
          ]}
        />
      )}
    </PageContainer>
  );
}
