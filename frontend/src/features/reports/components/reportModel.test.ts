import { describe, expect, it } from 'vitest';
import type { ReportDefinition, RunResult } from '../api/reportLab';
import { buildTable, chartData, measureColumnKey } from './reportModel';

const base: ReportDefinition = { dataset: 'cartons', filters: [], group_by: [], pivot: null, measures: [], order_by: [], limit: 1000 };

describe('buildTable', () => {
  it('puts each subtotal after its group block and the total last, ordered by the groups', () => {
    const definition = { ...base, group_by: ['vendor', 'batch'], measures: [{ field: 'id', agg: 'count' as const }] };
    const result: RunResult = {
      columns: ['vendor', 'batch'],
      measures: ['id__count'],
      rows: [
        { vendor: 'B', batch: 'b1', id__count: 2 },
        { vendor: 'A', batch: 'a2', id__count: 1 },
        { vendor: 'A', batch: 'a1', id__count: 2 },
      ],
      subtotals: [
        { level: 1, vendor: 'A', id__count: 3 },
        { level: 1, vendor: 'B', id__count: 2 },
      ],
      pivot_totals: [],
      totals: { id__count: 5 },
      truncated: false,
    };
    const model = buildTable(result, definition);
    expect(model.rows.map((r) => [r.level, r.values['g:vendor'], r.values['g:batch'] ?? null, r.values.id__count])).toEqual([
      [0, 'A', 'a1', 2],
      [0, 'A', 'a2', 1],
      [1, 'A', null, 3],
      [0, 'B', 'b1', 2],
      [1, 'B', null, 2],
      [-1, undefined, null, 5],
    ]);
    expect(model.rows[0]?.cell).toEqual({ vendor: 'A', batch: 'a1' });
    expect(model.rows[2]?.cell).toEqual({ vendor: 'A' });
  });

  it('spreads a pivot over columns per value and measure, with the pivot totals as the total row', () => {
    const definition = { ...base, group_by: ['vendor'], pivot: 'status', measures: [{ field: 'id', agg: 'count' as const }] };
    const result: RunResult = {
      columns: ['vendor', 'status'],
      measures: ['id__count'],
      rows: [
        { vendor: 'A', status: 'active', id__count: 3 },
        { vendor: 'A', status: 'voided', id__count: 1 },
        { vendor: 'B', status: 'active', id__count: 2 },
      ],
      subtotals: [],
      pivot_totals: [
        { status: 'active', id__count: 5 },
        { status: 'voided', id__count: 1 },
      ],
      totals: { id__count: 6 },
      truncated: false,
    };
    const model = buildTable(result, definition);
    expect(model.pivotValues).toEqual(['active', 'voided']);
    const active = measureColumnKey('id__count', 'active');
    const voided = measureColumnKey('id__count', 'voided');
    expect(model.columns.map((c) => c.key)).toEqual(['g:vendor', active, voided]);
    const [a, b, total] = model.rows;
    expect([a?.values[active], a?.values[voided]]).toEqual([3, 1]);
    expect([b?.values[active], b?.values[voided]]).toEqual([2, undefined]);
    expect([total?.level, total?.values[active], total?.values[voided]]).toEqual([-1, 5, 1]);

    const chart = chartData(model, definition, (_f, v) => String(v), (m) => m);
    expect(chart.categories).toEqual(['A', 'B']);
    expect(chart.series).toEqual([
      { name: 'active', data: [3, 2] },
      { name: 'voided', data: [1, 0] },
    ]);
  });

  it('without a pivot, a chart has one series per measure', () => {
    const definition = {
      ...base,
      group_by: ['month'],
      measures: [
        { field: 'id', agg: 'count' as const },
        { field: 'kg', agg: 'sum' as const },
      ],
    };
    const result: RunResult = {
      columns: ['month'],
      measures: ['id__count', 'kg__sum'],
      rows: [{ month: '2026-11-01', id__count: 4, kg__sum: '2.5' }],
      subtotals: [],
      pivot_totals: [],
      totals: { id__count: 4, kg__sum: '2.5' },
      truncated: false,
    };
    const model = buildTable(result, definition);
    const chart = chartData(model, definition, (_f, v) => String(v), (m) => `label:${m}`);
    expect(chart.series).toEqual([
      { name: 'label:id__count', data: [4] },
      { name: 'label:kg__sum', data: [2.5] },
    ]);
  });
});
