/** The question: dataset, filters, up to three groups, a pivot, measures. Every control is labelled. */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import dayjs from '@/shared/utils/dayjs';
import { useTranslation } from 'react-i18next';
import type { Aggregate, Dataset, Dimension, FilterOp, ReportDefinition, ReportFilter } from '../api/reportLab';
import { splitKey } from './reportFormat';
import styles from './reportLab.module.css';

const OPS: Record<Dimension['kind'], FilterOp[]> = {
  text: ['eq', 'in', 'contains'],
  choice: ['eq', 'in'],
  number: ['eq', 'in', 'range'],
  date: ['eq', 'range', 'relative'],
  bool: ['eq'],
};
const RELATIVE = ['last_7_days', 'last_30_days', 'last_90_days', 'last_12_months', 'this_week', 'this_month', 'this_quarter', 'this_year'];
export const MAX_GROUPS = 3;

interface Props {
  datasets: Dataset[];
  dataset: Dataset | undefined;
  definition: ReportDefinition;
  onChange: (definition: ReportDefinition) => void;
}

export function emptyDefinition(dataset: string): ReportDefinition {
  return { dataset, filters: [], group_by: [], pivot: null, measures: [{ field: 'id', agg: 'count' }], order_by: [], limit: 1000 };
}

function defaultValue(dimension: Dimension, op: FilterOp): unknown {
  if (op === 'in') return [];
  if (op === 'range') return [null, null];
  if (op === 'relative') return 'last_90_days';
  if (dimension.kind === 'bool') return true;
  return dimension.kind === 'choice' ? (dimension.choices[0]?.value ?? '') : '';
}

function FilterValue({ dimension, filter, onChange }: { dimension: Dimension; filter: ReportFilter; onChange: (value: unknown) => void }) {
  const { t } = useTranslation('reports');
  const label = t('filterValue', { field: dimension.label });
  if (filter.op === 'relative') {
    return (
      <Select
        aria-label={label}
        className={styles.field}
        value={filter.value as string}
        onChange={onChange}
        options={RELATIVE.map((value) => ({ value, label: t(`relative.${value}`) }))}
      />
    );
  }
  if (dimension.kind === 'choice') {
    return (
      <Select
        aria-label={label}
        className={styles.field}
        mode={filter.op === 'in' ? 'multiple' : undefined}
        value={filter.value as string | string[]}
        onChange={onChange}
        options={dimension.choices.map((c) => ({ value: c.value, label: c.label }))}
      />
    );
  }
  if (dimension.kind === 'bool') {
    return (
      <Select
        aria-label={label}
        className={styles.field}
        value={filter.value as boolean}
        onChange={onChange}
        options={[
          { value: true, label: t('yes') },
          { value: false, label: t('no') },
        ]}
      />
    );
  }
  if (dimension.kind === 'date') {
    if (filter.op === 'range') {
      const [from, to] = (filter.value as (string | null)[]) ?? [null, null];
      return (
        <DatePicker.RangePicker
          aria-label={label}
          allowEmpty={[true, true]}
          value={[from ? dayjs(from) : null, to ? dayjs(to) : null]}
          onChange={(range) => onChange([range?.[0]?.format('YYYY-MM-DD') ?? null, range?.[1]?.format('YYYY-MM-DD') ?? null])}
        />
      );
    }
    return (
      <DatePicker
        aria-label={label}
        value={filter.value ? dayjs(filter.value as string) : null}
        onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : '')}
      />
    );
  }
  if (filter.op === 'in') {
    return (
      <Select
        aria-label={label}
        className={styles.field}
        mode="tags"
        value={filter.value as string[]}
        onChange={onChange}
        tokenSeparators={[',']}
        open={false}
        placeholder={t('inPlaceholder')}
      />
    );
  }
  if (dimension.kind === 'number') {
    if (filter.op === 'range') {
      const [from, to] = (filter.value as (number | null)[]) ?? [null, null];
      return (
        <Space.Compact>
          <InputNumber aria-label={t('rangeFrom', { field: dimension.label })} value={from} onChange={(v) => onChange([v, to])} />
          <InputNumber aria-label={t('rangeTo', { field: dimension.label })} value={to} onChange={(v) => onChange([from, v])} />
        </Space.Compact>
      );
    }
    return <InputNumber aria-label={label} value={filter.value as number} onChange={onChange} />;
  }
  return <Input aria-label={label} className={styles.field} value={filter.value as string} onChange={(e) => onChange(e.target.value)} maxLength={200} />;
}

export function ReportBuilder({ datasets, dataset, definition, onChange }: Props) {
  const { t } = useTranslation('reports');
  const set = (patch: Partial<ReportDefinition>) => onChange({ ...definition, ...patch });
  const dimensions = dataset?.dimensions ?? [];
  const dimension = (name: string) => dimensions.find((d) => d.name === name);
  const used = new Set([...definition.group_by.map((g) => splitKey(g).field), ...(definition.pivot ? [splitKey(definition.pivot).field] : [])]);

  const groupSelect = (value: string | null, onSelect: (key: string | null) => void, label: string, allowClear: boolean) => {
    const { field, grain } = value ? splitKey(value) : { field: null, grain: null };
    const dim = field ? dimension(field) : undefined;
    return (
      <Space.Compact>
        <Select
          aria-label={label}
          className={styles.field}
          value={field}
          allowClear={allowClear}
          placeholder={t('chooseField')}
          onChange={(name: string | undefined) => {
            if (!name) return onSelect(null);
            const next = dimension(name);
            onSelect(next?.kind === 'date' ? `${name}:month` : name);
          }}
          options={dimensions.map((d) => ({ value: d.name, label: d.label, disabled: d.name !== field && used.has(d.name) }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
        {dim?.kind === 'date' ? (
          <Select
            aria-label={t('grainOf', { field: dim.label })}
            value={grain ?? 'month'}
            onChange={(g: string) => onSelect(`${field}:${g}`)}
            options={dim.grains.map((g) => ({ value: g, label: t(`grains.${g}`) }))}
          />
        ) : null}
      </Space.Compact>
    );
  };

  return (
    <Form layout="vertical" className={styles.builder} component="div">
      <Flex wrap gap="middle">
        <Form.Item label={t('dataset')} htmlFor="report-dataset">
          <Select
            id="report-dataset"
            className={styles.field}
            value={definition.dataset || undefined}
            placeholder={t('chooseDataset')}
            onChange={(name: string) => onChange(emptyDefinition(name))}
            options={datasets.map((d) => ({ value: d.name, label: d.label }))}
          />
        </Form.Item>
        {dataset ? (
          <>
            {definition.group_by.map((g, index) => (
              <Form.Item key={`group-${index}`} label={t('groupN', { n: index + 1 })}>
                {groupSelect(
                  g,
                  (key) =>
                    set({
                      group_by: key ? definition.group_by.map((x, i) => (i === index ? key : x)) : definition.group_by.filter((_, i) => i !== index),
                      order_by: [],
                    }),
                  t('groupN', { n: index + 1 }),
                  true,
                )}
              </Form.Item>
            ))}
            {definition.group_by.length < MAX_GROUPS ? (
              <Form.Item label={t('groupN', { n: definition.group_by.length + 1 })}>
                {groupSelect(null, (key) => key && set({ group_by: [...definition.group_by, key], order_by: [] }), t('groupN', { n: definition.group_by.length + 1 }), false)}
              </Form.Item>
            ) : null}
            <Form.Item label={t('pivot')}>
              {groupSelect(definition.pivot, (key) => set({ pivot: key, order_by: [] }), t('pivot'), true)}
            </Form.Item>
          </>
        ) : null}
      </Flex>

      {dataset ? (
        <>
          <Typography.Title level={2} className={styles.sectionTitle}>
            {t('measures')}
          </Typography.Title>
          <Flex wrap gap="small">
            {definition.measures.map((m, index) => {
              const measure = dataset.measures.find((x) => x.name === m.field);
              return (
                <Space.Compact key={`${m.field}-${m.agg}-${index}`}>
                  <Select
                    aria-label={t('measureN', { n: index + 1 })}
                    className={styles.field}
                    value={m.field}
                    onChange={(field: string) => {
                      const next = dataset.measures.find((x) => x.name === field);
                      const agg = (next?.aggregates.includes(m.agg) ? m.agg : (next?.aggregates[0] ?? 'count')) as Aggregate;
                      set({ measures: definition.measures.map((x, i) => (i === index ? { field, agg } : x)), order_by: [] });
                    }}
                    options={dataset.measures.map((x) => ({ value: x.name, label: x.label }))}
                  />
                  <Select
                    aria-label={t('aggregateOf', { n: index + 1 })}
                    value={m.agg}
                    onChange={(agg: Aggregate) => set({ measures: definition.measures.map((x, i) => (i === index ? { ...x, agg } : x)), order_by: [] })}
                    options={(measure?.aggregates ?? []).map((a) => ({ value: a, label: t(`aggregates.${a}`) }))}
                  />
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('removeMeasure', { n: index + 1 })}
                    disabled={definition.measures.length === 1}
                    onClick={() => set({ measures: definition.measures.filter((_, i) => i !== index), order_by: [] })}
                  />
                </Space.Compact>
              );
            })}
            <Button
              icon={<PlusOutlined />}
              onClick={() => {
                const first = dataset.measures.find((x) => x.name !== 'id') ?? dataset.measures[0];
                if (first) set({ measures: [...definition.measures, { field: first.name, agg: first.aggregates[0] as Aggregate }] });
              }}
            >
              {t('addMeasure')}
            </Button>
          </Flex>

          <Typography.Title level={2} className={styles.sectionTitle}>
            {t('filters')}
          </Typography.Title>
          <Flex vertical gap="small">
            {definition.filters.map((f, index) => {
              const dim = dimension(f.field);
              if (!dim) return null;
              const update = (patch: Partial<ReportFilter>) =>
                set({ filters: definition.filters.map((x, i) => (i === index ? { ...x, ...patch } : x)) });
              return (
                <Flex key={`filter-${index}`} wrap gap="small" align="center">
                  <Select
                    aria-label={t('filterField', { n: index + 1 })}
                    className={styles.field}
                    value={f.field}
                    onChange={(field: string) => {
                      const next = dimension(field);
                      if (!next) return;
                      const op = OPS[next.kind][0];
                      update({ field, op, value: defaultValue(next, op) });
                    }}
                    options={dimensions.map((d) => ({ value: d.name, label: d.label }))}
                    showSearch={{ optionFilterProp: 'label' }}
                  />
                  <Select
                    aria-label={t('filterOp', { n: index + 1 })}
                    value={f.op}
                    onChange={(op: FilterOp) => update({ op, value: defaultValue(dim, op) })}
                    options={OPS[dim.kind].map((op) => ({ value: op, label: t(`ops.${op}`) }))}
                  />
                  <FilterValue dimension={dim} filter={f} onChange={(value) => update({ value })} />
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('removeFilter', { n: index + 1 })}
                    onClick={() => set({ filters: definition.filters.filter((_, i) => i !== index) })}
                  />
                </Flex>
              );
            })}
            <div>
              <Button
                icon={<PlusOutlined />}
                onClick={() => {
                  const first = dimensions[0];
                  if (!first) return;
                  const op = OPS[first.kind][0];
                  set({ filters: [...definition.filters, { field: first.name, op, value: defaultValue(first, op) }] });
                }}
              >
                {t('addFilter')}
              </Button>
            </div>
          </Flex>
        </>
      ) : null}
    </Form>
  );
}

/** Filters that are not filled in yet are left out of the request (an empty text, an empty list). */
export function runnableDefinition(definition: ReportDefinition): ReportDefinition | null {
  if (!definition.dataset || definition.measures.length === 0) return null;
  const filters = definition.filters.filter((f) => {
    if (f.value === '' || f.value === null || f.value === undefined) return false;
    if (Array.isArray(f.value)) return f.op === 'range' ? f.value.some((v) => v !== null && v !== undefined) : f.value.length > 0;
    return true;
  });
  return { ...definition, filters };
}
