import { Checkbox, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MatrixAction, MatrixArea, MatrixModel } from '../api/types';
import styles from './users.module.css';

export const MATRIX_ACTIONS: readonly MatrixAction[] = ['view', 'add', 'change', 'delete'];

type Row = { key: string; area: MatrixArea; model?: MatrixModel };

interface Props {
  areas: MatrixArea[];
  selected: ReadonlySet<string>;
  disabled?: boolean;
  onChange: (labels: string[], checked: boolean) => void;
}

function areaLabels(area: MatrixArea, action: MatrixAction): string[] {
  return area.models.map((model) => model.permissions[action]).filter((label): label is string => Boolean(label));
}

/** Areas x models x view/add/change/delete checkboxes; an area's row toggles the whole column of it. */
export function PermissionMatrix({ areas, selected, disabled, onChange }: Props) {
  const { t } = useTranslation('users');
  const rows: Row[] = areas.flatMap((area) => [
    { key: `area:${area.app_label}`, area },
    ...area.models.map((model) => ({ key: `${area.app_label}.${model.model}`, area, model })),
  ]);

  const actionColumn = (action: MatrixAction) => ({
    title: t(`matrix.${action}`),
    key: action,
    align: 'center' as const,
    width: 90,
    render: (_v: unknown, row: Row) => {
      if (!row.model) {
        const labels = areaLabels(row.area, action);
        if (labels.length === 0) return null;
        const count = labels.filter((label) => selected.has(label)).length;
        return (
          <Checkbox
            aria-label={t('matrix.areaAll', { area: row.area.name, action: t(`matrix.${action}`) })}
            checked={count === labels.length}
            indeterminate={count > 0 && count < labels.length}
            disabled={disabled}
            onChange={(event) => onChange(labels, event.target.checked)}
          />
        );
      }
      const label = row.model.permissions[action];
      if (!label) return null;
      return (
        <Checkbox
          aria-label={`${row.model.name}: ${t(`matrix.${action}`)}`}
          data-permission={label}
          checked={selected.has(label)}
          disabled={disabled}
          onChange={(event) => onChange([label], event.target.checked)}
        />
      );
    },
  });

  return (
    <Table<Row>
      size="small"
      rowKey="key"
      dataSource={rows}
      pagination={false}
      scroll={{ x: 'max-content' }}
      rowClassName={(row) => (row.model ? '' : styles.areaRow)}
      columns={[
        {
          title: t('matrix.area'),
          key: 'name',
          render: (_v, row) => (row.model ? <span>{row.model.name}</span> : <Typography.Text strong>{row.area.name}</Typography.Text>),
        },
        ...MATRIX_ACTIONS.map(actionColumn),
        {
          title: t('matrix.other'),
          key: 'extra',
          render: (_v, row) =>
            row.model && row.model.extra.length > 0 ? (
              <div className={styles.extra}>
                {row.model.extra.map((extra) => (
                  <Checkbox
                    key={extra.codename}
                    checked={selected.has(extra.codename)}
                    disabled={disabled}
                    onChange={(event) => onChange([extra.codename], event.target.checked)}
                  >
                    {extra.name}
                  </Checkbox>
                ))}
              </div>
            ) : null,
        },
      ]}
    />
  );
}
