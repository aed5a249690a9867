import { AimOutlined } from '@ant-design/icons';
import { Alert, Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GeoJsonProblem } from '../api/types';
import styles from './eudr.module.css';

interface Props {
  problems: GeoJsonProblem[];
  /** Shows a plot on the map (the plot's name becomes a link). */
  onSelectFeature?: (feature: number) => void;
}

/** The problems grouped by plot: the whole file first, then each plot in file order. */
export function groupProblems(problems: readonly GeoJsonProblem[]): { feature: number | null; problems: GeoJsonProblem[] }[] {
  const groups = new Map<number | null, GeoJsonProblem[]>();
  for (const problem of problems) {
    const key = problem.feature ?? null;
    groups.set(key, [...(groups.get(key) ?? []), problem]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a ?? -1) - (b ?? -1))
    .map(([feature, found]) => ({ feature, problems: [...found].sort((x, y) => (x.severity === y.severity ? 0 : x.severity === 'error' ? -1 : 1)) }));
}

/** Problems of a plot file, listed per plot (the EU information system's geolocation rules). */
export function GeometryProblems({ problems, onSelectFeature }: Props) {
  const { t } = useTranslation('eudr');
  if (problems.length === 0) return null;
  return (
    <Alert
      type={problems.some((p) => p.severity === 'error') ? 'error' : 'warning'}
      showIcon
      className={styles.section}
      title={t('geometry.problems', { count: problems.length })}
      description={
        <ul className={styles.problems} data-testid="geometry-problems">
          {groupProblems(problems).map(({ feature, problems: found }) => (
            <li key={feature ?? 'file'} data-testid={feature === null ? 'problems-file' : `problems-plot-${feature + 1}`}>
              {feature === null ? (
                <Typography.Text strong>{t('geometry.file')}</Typography.Text>
              ) : onSelectFeature ? (
                <Button type="link" size="small" className={styles.inlineLink} icon={<AimOutlined />} onClick={() => onSelectFeature(feature)}>
                  {t('geometry.feature', { number: feature + 1 })}
                </Button>
              ) : (
                <Typography.Text strong>{t('geometry.feature', { number: feature + 1 })}</Typography.Text>
              )}
              <ul className={styles.problemItems}>
                {found.map((problem, index) => (
                  <li key={index}>
                    <Typography.Text type={problem.severity === 'error' ? 'danger' : 'warning'}>
                      {t(`geometry.severity.${problem.severity}`)}
                    </Typography.Text>
                    {': '}
                    {problem.message}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      }
    />
  );
}
