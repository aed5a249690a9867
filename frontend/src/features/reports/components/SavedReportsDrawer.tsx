import { CopyOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Empty, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { useSavedReportMutations, useSavedReports, type SavedReport } from '../api/reportLab';

interface Props {
  open: boolean;
  onClose: () => void;
  onOpenReport: (report: SavedReport) => void;
  currentId: number | null;
  onDeleted: (id: number) => void;
}

/** Your reports and those shared with the company: open, duplicate, delete (your own). */
export function SavedReportsDrawer({ open, onClose, onOpenReport, currentId, onDeleted }: Props) {
  const { t } = useTranslation('reports');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const saved = useSavedReports();
  const { remove, duplicate } = useSavedReportMutations();
  const reports = saved.data?.results ?? [];
  return (
    <Drawer open={open} onClose={onClose} title={t('savedReports')} size="default">
      {saved.isError ? (
        <ErrorState error={saved.error} onRetry={() => void saved.refetch()} />
      ) : (
        <List<SavedReport>
          loading={saved.isPending}
          dataSource={reports}
          locale={{ emptyText: saved.isPending ? t('loading') : <Empty description={t('noSavedReports')} /> }}
          renderItem={(report) => (
            <List.Item
              actions={[
                <Button
                  key="open"
                  type={report.id === currentId ? 'primary' : 'default'}
                  icon={<FolderOpenOutlined />}
                  aria-label={t('openReport', { name: report.name })}
                  onClick={() => onOpenReport(report)}
                />,
                <Button
                  key="duplicate"
                  icon={<CopyOutlined />}
                  aria-label={t('duplicateReport', { name: report.name })}
                  loading={duplicate.isPending && duplicate.variables === report.id}
                  onClick={() =>
                    duplicate.mutate(report.id, {
                      onSuccess: (copy) => {
                        void message.success(t('duplicated', { name: copy.name }));
                        onOpenReport(copy);
                      },
                      onError: (error) => void message.error(errorText(error)),
                    })
                  }
                />,
                report.is_mine ? (
                  <ConfirmDelete
                    key="delete"
                    itemLabel={report.name}
                    onConfirm={() => remove.mutateAsync(report.id).then(() => onDeleted(report.id))}
                  />
                ) : null,
              ]}
            >
              <List.Item.Meta
                title={
                  // The name opens the report too: the folder button is not the only way in.
                  <Button type="link" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }} onClick={() => onOpenReport(report)}>
                    {report.name}
                  </Button>
                }
                description={
                  <Space size={4} wrap>
                    {report.description ? <Typography.Text type="secondary">{report.description}</Typography.Text> : null}
                    <Tag>{t(`charts.${report.chart ?? 'table'}`)}</Tag>
                    {report.shared ? <Tag color="blue">{t('shared')}</Tag> : <Tag>{t('private')}</Tag>}
                    {!report.is_mine ? <Typography.Text type="secondary">{t('byOwner', { name: report.owner_name })}</Typography.Text> : null}
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
