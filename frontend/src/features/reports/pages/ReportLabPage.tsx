/**
 * The report lab (/reports): build a question on a dataset (filters, groups, pivot, measures), see it as
 * a table with subtotals and as a chart, open the records behind a figure, export CSV/XLSX/PNG, and
 * save, reopen, duplicate or delete reports. The open saved report is in the URL (?report=id).
 */
import { BarChartOutlined, DownloadOutlined, FolderOpenOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Dropdown, Empty, Flex, Segmented, Skeleton, Spin, Typography } from 'antd';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { saveBlob } from '@/shared/utils/saveFile';
import {
  exportReport,
  useDatasets,
  useReportRun,
  useSavedReportMutations,
  useSavedReports,
  type ChartKind,
  type ReportDefinition,
  type SavedReport,
} from '../api/reportLab';
import { DrillDrawer } from '../components/DrillDrawer';
import { ReportBuilder, emptyDefinition, runnableDefinition } from '../components/ReportBuilder';
import type { ChartHandle } from '../components/ReportChart';
import { groupText, splitKey } from '../components/reportFormat';
import { buildTable, chartData, type CellValue } from '../components/reportModel';
import { ReportTable } from '../components/ReportTable';
import { SaveReportDialog, type SaveValues } from '../components/SaveReportDialog';
import { SavedReportsDrawer } from '../components/SavedReportsDrawer';
import { useDebounced } from '../hooks/useDebounced';
import styles from '../components/reportLab.module.css';

const ReportChart = lazy(() => import('../components/ReportChart'));
const CHARTS: ChartKind[] = ['table', 'bar', 'stacked', 'line', 'pie'];

interface Draft {
  reportId: number | null;
  definition: ReportDefinition;
  chart: ChartKind;
  report: SavedReport | null;
}

function asDefinition(raw: unknown): ReportDefinition {
  const value = (raw ?? {}) as Partial<ReportDefinition>;
  return { ...emptyDefinition(value.dataset ?? ''), ...value, pivot: value.pivot ?? null };
}

export default function ReportLabPage() {
  const { t, i18n } = useTranslation('reports');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [params, setParams] = useSearchParams();
  const datasets = useDatasets();
  const saved = useSavedReports();
  const { create, update } = useSavedReportMutations();

  const [savedOpen, setSavedOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  const [drillCell, setDrillCell] = useState<Record<string, CellValue> | null>(null);
  const [exporting, setExporting] = useState(false);
  const chartRef = useRef<ChartHandle>(null);

  // What is on screen: the user's edits, else the saved report the URL names, else a new report on the
  // first dataset.
  const reportId = Number(params.get('report')) || null;
  const [edited, setEdited] = useState<Draft | null>(null);
  const fromList = reportId ? saved.data?.results.find((r) => r.id === reportId) : undefined;
  const draft: Draft =
    edited && edited.reportId === reportId
      ? edited
      : fromList
        ? { reportId, definition: asDefinition(fromList.definition), chart: fromList.chart ?? 'table', report: fromList }
        : { reportId: null, definition: emptyDefinition(datasets.data?.[0]?.name ?? ''), chart: 'table', report: null };
  const { definition, chart } = draft;
  const current = reportId ? (fromList ?? draft.report) : null;
  const setDefinition = (next: ReportDefinition) => setEdited({ ...draft, definition: next });
  const setChart = (next: ChartKind) => setEdited({ ...draft, chart: next });

  const dataset = datasets.data?.find((d) => d.name === definition.dataset);
  const settled = useDebounced(definition);
  const runnable = useMemo(() => (dataset ? runnableDefinition(settled) : null), [settled, dataset]);
  const run = useReportRun(runnable);
  const language = i18n.language;

  const groupLabel = (key: string) => {
    const { field, grain } = splitKey(key);
    const label = dataset?.dimensions.find((d) => d.name === field)?.label ?? field;
    return grain ? `${label} (${t(`grains.${grain}`)})` : label;
  };
  const measureLabel = (key: string) => {
    const [field = key, agg = ''] = key.split('__');
    const label = dataset?.measures.find((m) => m.name === field)?.label ?? field;
    return `${label} · ${t(`aggregates.${agg}`)}`;
  };
  const shownDefinition = runnable ?? settled;
  const model = useMemo(() => (run.data && runnable ? buildTable(run.data, runnable) : null), [run.data, runnable]);
  const series = useMemo(
    () =>
      model && runnable
        ? chartData(model, runnable, (key, value) => groupText(dataset, key, value, language, t('none')), measureLabel)
        : null,
    // measureLabel depends on dataset and language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model, runnable, dataset, language],
  );
  const title = current?.name ?? dataset?.label ?? '';

  const openReport = (report: SavedReport) => {
    setSavedOpen(false);
    setEdited({ reportId: report.id, definition: asDefinition(report.definition), chart: report.chart ?? 'table', report });
    setParams({ report: String(report.id) });
  };

  const newReport = () => {
    setParams({});
    setEdited({ reportId: null, definition: emptyDefinition(definition.dataset || (datasets.data?.[0]?.name ?? '')), chart: 'table', report: null });
  };

  const saveChanges = async () => {
    if (!current) return;
    try {
      const report = await update.mutateAsync({ id: current.id, input: { definition, chart } });
      setEdited({ ...draft, report });
      void message.success(t('saved', { name: report.name }));
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const saveAs = async (values: SaveValues) => {
    const report = await create.mutateAsync({ ...values, definition, chart });
    setSaveOpen(false);
    openReport(report);
    void message.success(t('saved', { name: report.name }));
  };

  const download = async (format: 'csv' | 'xlsx' | 'png') => {
    const name = (title || 'report').replace(/[^\p{L}\p{N}._-]+/gu, '-');
    if (format === 'png') {
      const url = chartRef.current?.toPng();
      if (!url) return;
      const blob = await (await fetch(url)).blob();
      saveBlob(blob, `${name}.png`);
      return;
    }
    if (!runnable) return;
    setExporting(true);
    try {
      saveBlob(await exportReport(runnable, format), `${name}.${format}`);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setExporting(false);
    }
  };

  if (datasets.isError) {
    return (
      <PageContainer>
        <ErrorState error={datasets.error} onRetry={() => void datasets.refetch()} />
      </PageContainer>
    );
  }

  const empty = run.data && run.data.rows.length === 0;
  return (
    <PageContainer
      extra={
        <>
          <Button icon={<FolderOpenOutlined />} onClick={() => setSavedOpen(true)}>
            {t('savedReports')}
          </Button>
          <Button onClick={newReport}>{t('newReport')}</Button>
          {current?.is_mine ? (
            <Button icon={<SaveOutlined />} loading={update.isPending} onClick={() => void saveChanges()}>
              {t('save')}
            </Button>
          ) : null}
          <Button icon={<SaveOutlined />} disabled={!dataset} onClick={() => setSaveOpen(true)}>
            {t('saveAs')}
          </Button>
          <Dropdown
            disabled={!run.data}
            menu={{
              items: [
                { key: 'csv', label: t('exportCsv') },
                { key: 'xlsx', label: t('exportXlsx') },
                { key: 'png', label: t('exportPng'), disabled: chart === 'table' },
              ],
              onClick: ({ key }) => void download(key as 'csv' | 'xlsx' | 'png'),
            }}
          >
            <Button icon={<DownloadOutlined />} loading={exporting}>
              {t('export')}
            </Button>
          </Dropdown>
        </>
      }
    >
      {current ? (
        <Typography.Paragraph type="secondary">
          {t('openedReport', { name: current.name })}
          {current.is_mine ? '' : ` · ${t('byOwner', { name: current.owner_name })}`}
        </Typography.Paragraph>
      ) : null}
      <Card>
        {datasets.isPending ? (
          <Skeleton active />
        ) : datasets.data && datasets.data.length === 0 ? (
          <Empty description={t('noDatasets')} />
        ) : (
          <ReportBuilder datasets={datasets.data ?? []} dataset={dataset} definition={definition} onChange={setDefinition} />
        )}
      </Card>

      {dataset ? (
        <Card className={styles.builder}>
          <Flex justify="space-between" align="center" wrap gap="small">
            <Typography.Title level={2} className={styles.sectionTitle}>
              <BarChartOutlined /> {title}
            </Typography.Title>
            <Segmented<ChartKind>
              aria-label={t('view')}
              value={chart}
              onChange={setChart}
              options={CHARTS.map((c) => ({ value: c, label: t(`charts.${c}`) }))}
            />
          </Flex>
          {run.isError ? (
            <Alert type="error" showIcon title={errorText(run.error)} />
          ) : run.isPending ? (
            <Flex justify="center" className={styles.chart} align="center">
              <Spin description={t('running')}>
                <span />
              </Spin>
            </Flex>
          ) : empty ? (
            <Empty description={t('noRecords')} />
          ) : model && series ? (
            <Spin spinning={run.isFetching}>
              {run.data?.truncated ? <Alert type="warning" showIcon title={t('truncated', { limit: shownDefinition.limit })} /> : null}
              {chart !== 'table' ? (
                <Suspense fallback={<Skeleton.Node active className={styles.chart} />}>
                  <ReportChart ref={chartRef} kind={chart} data={series} title={title} />
                </Suspense>
              ) : null}
              <ReportTable
                model={model}
                definition={runnable as ReportDefinition}
                dataset={dataset}
                groupLabel={groupLabel}
                measureLabel={measureLabel}
                onDrill={setDrillCell}
              />
            </Spin>
          ) : null}
        </Card>
      ) : null}

      {runnable ? (
        <DrillDrawer definition={runnable} cell={drillCell} title={t('records')} onClose={() => setDrillCell(null)} />
      ) : null}
      <SavedReportsDrawer
        open={savedOpen}
        onClose={() => setSavedOpen(false)}
        onOpenReport={openReport}
        currentId={current?.id ?? null}
        onDeleted={(id) => {
          if (id === current?.id) newReport();
        }}
      />
      <SaveReportDialog
        open={saveOpen}
        initial={{ name: current ? t('copyOf', { name: current.name }) : '', description: current?.description ?? '', shared: false }}
        onCancel={() => setSaveOpen(false)}
        onSave={saveAs}
      />
    </PageContainer>
  );
}
