import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GeoJsonProblem } from '../api/types';
import styles from './eudr.module.css';

/** Problems of a plot file, grouped by feature (the EU information system's geolocation rules). */
export function GeometryProblems({ problems }: { problems: GeoJsonProblem[] }) {
  const { t } = useTranslation('eudr');
  if (problems.length === 0) return null;
  const sorted = [...problems].sort((a, b) => (a.feature ?? -1) - (b.feature ?? -1));
  return (
    <Alert
      type={problems.some((p) => p.severity === 'error') ? 'error' : 'warning'}
      showIcon
      className={styles.section}
      title={t('geometry.problems', { count: problems.length })}
      description={
        <ul className={styles.problems} data-testid="geometry-problems">
          {sorted.map((problem, index) => (
            <li key={index}>
              <Typography.Text strong>
                {problem.feature === null || problem.feature === undefined ? t('geometry.file') : t('geometry.feature', { number: problem.feature + 1 })}
              </Typography.Text>
              {': '}
              <Typography.Text type={problem.severity === 'error' ? 'danger' : undefined}>{problem.message}</Typography.Text>
            </li>
          ))}
        </ul>
      }
    />
  );
}
