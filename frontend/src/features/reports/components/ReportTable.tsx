import { Button, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { Dataset, ReportDefinition } from '../api/reportLab';
import { formatNumber, groupText } from './reportFormat';
import type { CellValue, ReportTableModel, TableRow } from './reportModel';
import styles from './reportLab.module.css';

interface Props {
  model: ReportTableModel;
  definition: ReportDefinition;
  dataset: Dataset | undefined;
  groupLabel: (key: string) => string;
  measureLabel: (key: string) => string;
  /** Opens the records behind a cell (drill-down). */
  onDrill: (cell: Record<string, CellValue>) => void;
}

/** The report as a table: group columns, measure columns (per pivot value), subtotal rows, the total. */
export function ReportTable({ model, definition, dataset, groupLabel, measureLabel, onDrill }: Props) {
  const { t, i18n } = useTranslation('reports');
  const language = i18n.language;
  const empty = t('none');
  const groups = definition.group_by;

  const groupColumns: ColumnsType<TableRow> = groups.map((g, index) => ({
    key: `g:${g}`,
    title: groupLabel(g),
    fixed: index === 0 ? 'left' : undefined,
    render: (_: unknown, row: TableRow) => {
      if (row.level === -1) return index === 0 ? <strong>{t('total')}</strong> : null;
      if (row.level > 0 && index >= row.level) return index === row.level ? <strong>{t('subtotal')}</strong> : null;
      return groupText(dataset, g, row.values[`g:${g}`] ?? null, language, empty);
    },
  }));

  const measureColumn = (key: string, field: string, pivotValue?: CellValue) => ({
    key,
    title: measureLabel(field),
    align: 'right' as const,
    render: (_: unknown, row: TableRow) => {
      const value = row.values[key] ?? null;
      const text = formatNumber(value, language);
      if (value === null || text === '') return text;
      const cell = definition.pivot ? { ...row.cell, [definition.pivot]: pivotValue ?? null } : row.cell;
      return (
        <Button
          type="link"
          size="small"
          className={row.level !== 0 ? `${styles.figure} ${styles.strong}` : styles.figure}
          onClick={() => onDrill(cell)}
          aria-label={t('drillLabel', { value: text })}
        >
          {text}
        </Button>
      );
    },
  });

  const measureColumns: ColumnsType<TableRow> = definition.pivot
    ? model.pivotValues.map((value, index) => ({
        key: `p${index}`,
        title: groupText(dataset, definition.pivot as string, value, language, empty),
        children: model.columns
          .filter((c) => c.kind === 'measure' && c.pivotValue === value)
          .map((c) => measureColumn(c.key, c.field, value)),
      }))
    : model.columns.filter((c) => c.kind === 'measure').map((c) => measureColumn(c.key, c.field));

  return (
    <Table<TableRow>
      size="small"
      bordered
      rowKey="key"
      columns={[...groupColumns, ...measureColumns]}
      dataSource={model.rows}
      pagination={model.rows.length > 100 ? { pageSize: 100, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      rowClassName={(row) => (row.level === -1 ? styles.totalRow : row.level > 0 ? styles.subtotalRow : '')}
    />
  );
}
