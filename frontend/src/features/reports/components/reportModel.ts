/**
 * The report's table and chart series, laid out from the figures the server computed (rows, subtotals,
 * pivot totals, totals): nothing is added up here. Pure functions, so the layout is tested on its own.
 */
import type { ReportDefinition, ReportRow, RunResult } from '../api/reportLab';

export type CellValue = string | number | null;

export interface TableColumn {
  /** Unique key of the column in a table row. */
  key: string;
  kind: 'group' | 'measure';
  /** The group key (`field` or `field:grain`) or the measure key (`field__agg`). */
  field: string;
  /** With a pivot: the pivot value this measure column belongs to. */
  pivotValue?: CellValue;
}

export interface TableRow {
  key: string;
  /** 0: a data row; k > 0: the subtotal of the first k groups; -1: the grand total. */
  level: number;
  values: Record<string, CellValue>;
  /** The groups (and pivot) a row's figures come from, for drill-down; per measure column with a pivot. */
  cell: Record<string, CellValue>;
}

export interface ReportTableModel {
  columns: TableColumn[];
  rows: TableRow[];
  pivotValues: CellValue[];
}

const SEP = '\u241f';

function keyOf(values: CellValue[]): string {
  return values.map((v) => (v === null ? '\u2205' : String(v))).join(SEP);
}

export function measureColumnKey(measure: string, pivotValue?: CellValue): string {
  return pivotValue === undefined ? measure : `${keyOf([pivotValue])}${SEP}${measure}`;
}

function compareValues(a: CellValue[], b: CellValue[]): number {
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    const order = String(x).localeCompare(String(y));
    if (order !== 0) return order;
  }
  return 0;
}

export function buildTable(result: RunResult, definition: ReportDefinition): ReportTableModel {
  const groups = definition.group_by;
  const pivot = definition.pivot;
  const measures = result.measures;
  const pivotValues: CellValue[] = pivot ? (result.pivot_totals as ReportRow[]).map((r) => r[pivot] ?? null) : [];

  const columns: TableColumn[] = groups.map((g) => ({ key: `g:${g}`, kind: 'group', field: g }));
  if (pivot) {
    for (const value of pivotValues) {
      for (const m of measures) columns.push({ key: measureColumnKey(m, value), kind: 'measure', field: m, pivotValue: value });
    }
  } else {
    for (const m of measures) columns.push({ key: measureColumnKey(m), kind: 'measure', field: m });
  }

  /** Rows of the server's answer merged per group combination, figures spread over the pivot columns. */
  function merge(rows: ReportRow[], keys: string[]): Map<string, { groupValues: CellValue[]; values: Record<string, CellValue> }> {
    const merged = new Map<string, { groupValues: CellValue[]; values: Record<string, CellValue> }>();
    for (const row of rows) {
      const groupValues = keys.map((k) => row[k] ?? null);
      const id = keyOf(groupValues);
      let entry = merged.get(id);
      if (!entry) {
        entry = { groupValues, values: {} };
        merged.set(id, entry);
      }
      for (const m of measures) {
        entry.values[measureColumnKey(m, pivot ? (row[pivot] ?? null) : undefined)] = row[m] ?? null;
      }
    }
    return merged;
  }

  const data = merge(result.rows as ReportRow[], groups);
  const levels = new Map<number, ReturnType<typeof merge>>();
  for (let level = 1; level < groups.length; level += 1) {
    const rows = (result.subtotals as ReportRow[]).filter((s) => s.level === level);
    levels.set(level, merge(rows, groups.slice(0, level)));
  }
  const entries = [...data.values()];
  // With subtotals the rows are ordered by their groups so each subtotal closes its block; otherwise
  // the server's order (the chosen sort) stands.
  if (levels.size > 0) entries.sort((a, b) => compareValues(a.groupValues, b.groupValues));

  const rows: TableRow[] = [];
  entries.forEach((entry, index) => {
    const values: Record<string, CellValue> = { ...entry.values };
    const cell: Record<string, CellValue> = {};
    groups.forEach((g, i) => {
      values[`g:${g}`] = entry.groupValues[i] ?? null;
      cell[g] = entry.groupValues[i] ?? null;
    });
    rows.push({ key: `r${index}`, level: 0, values, cell });
    const next = entries[index + 1];
    for (let level = groups.length - 1; level >= 1; level -= 1) {
      const prefix = entry.groupValues.slice(0, level);
      if (next && keyOf(next.groupValues.slice(0, level)) === keyOf(prefix)) continue;
      const subtotal = levels.get(level)?.get(keyOf(prefix));
      const subValues: Record<string, CellValue> = { ...(subtotal?.values ?? {}) };
      const subCell: Record<string, CellValue> = {};
      groups.slice(0, level).forEach((g, i) => {
        subValues[`g:${g}`] = prefix[i] ?? null;
        subCell[g] = prefix[i] ?? null;
      });
      rows.push({ key: `s${index}-${level}`, level, values: subValues, cell: subCell });
    }
  });

  const totalValues: Record<string, CellValue> = {};
  if (pivot) {
    for (const row of result.pivot_totals as ReportRow[]) {
      for (const m of measures) totalValues[measureColumnKey(m, row[pivot] ?? null)] = row[m] ?? null;
    }
  } else {
    for (const m of measures) totalValues[measureColumnKey(m)] = (result.totals as ReportRow)[m] ?? null;
  }
  rows.push({ key: 'total', level: -1, values: totalValues, cell: {} });
  return { columns, rows, pivotValues };
}

export interface ChartSeries {
  name: string;
  data: number[];
}

export interface ChartData {
  categories: string[];
  series: ChartSeries[];
}

/**
 * Categories: the data rows' group values (joined when several); series: one per pivot value for the
 * first measure, or one per measure without a pivot.
 */
export function chartData(
  model: ReportTableModel,
  definition: ReportDefinition,
  text: (field: string, value: CellValue) => string,
  measureLabel: (measure: string) => string,
): ChartData {
  const dataRows = model.rows.filter((r) => r.level === 0);
  const categories = dataRows.map((r) => definition.group_by.map((g) => text(g, r.values[`g:${g}`] ?? null)).join(' · ') || '—');
  const measureColumns = model.columns.filter((c) => c.kind === 'measure');
  const first = measureColumns[0]?.field;
  const columns = definition.pivot ? measureColumns.filter((c) => c.field === first) : measureColumns;
  const series = columns.map((column) => ({
    name: definition.pivot ? text(definition.pivot, column.pivotValue ?? null) : measureLabel(column.field),
    data: dataRows.map((r) => Number(r.values[column.key] ?? 0)),
  }));
  return { categories, series };
}
