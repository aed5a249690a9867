import { Col, Flex, Progress, Row, Statistic, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Weight } from '../api/types';
import { cartonCap, formatKg, weightBar } from '../lib/weight';
import styles from './WeightBalance.module.css';

interface Props {
  weight: Weight;
  issuedCartons: number;
  allowedCartonCap: number | null;
  approvedOverCap: number;
}

/** The weight balance of a delivery (docs/specification.md section 4): figures, one bar, and the carton cap. */
export function WeightBalance({ weight, issuedCartons, allowedCartonCap, approvedOverCap }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const bar = weightBar(weight);
  const cap = cartonCap({ issued_cartons: issuedCartons, allowed_carton_cap: allowedCartonCap, approved_over_cap: approvedOverCap });
  const kg = (value: number) => t('units.kg', { value: formatKg(value, i18n.language) });
  const figures = [
    { key: 'original', value: bar.original },
    { key: 'loss', value: bar.loss },
    { key: 'available', value: bar.available },
    { key: 'used', value: bar.used },
    { key: 'remaining', value: bar.remaining },
  ] as const;

  return (
    <div data-testid="weight-balance">
      <Row gutter={[16, 12]} className={styles.figures}>
        {figures.map((figure) => (
          <Col key={figure.key} xs={12} sm={8} lg={4}>
            <Statistic
              title={t(`weight.${figure.key}`)}
              value={formatKg(figure.value, i18n.language)}
              suffix={t('units.kgSuffix')}
              styles={figure.key === 'remaining' && bar.level !== 'ok' ? { content: { color: 'var(--p-color-error)' } } : undefined}
              data-testid={`weight-${figure.key}`}
            />
          </Col>
        ))}
        <Col xs={12} sm={8} lg={4}>
          <Statistic
            title={t('weight.cartons')}
            value={cap.limit === null ? cap.issued : `${cap.issued} / ${cap.limit}`}
            data-testid="weight-cap"
          />
        </Col>
      </Row>
      <div
        className={styles.bar}
        role="img"
        aria-label={t('weight.barLabel', { used: kg(bar.used), remaining: kg(bar.remaining), loss: kg(bar.loss), original: kg(bar.original) })}
      >
        <Tooltip title={`${t('weight.used')}: ${kg(bar.used)}`}>
          <div className={styles.used} style={{ width: `${bar.usedPercent}%` }} />
        </Tooltip>
        <Tooltip title={`${t('weight.remaining')}: ${kg(bar.remaining)}`}>
          <div className={bar.level === 'ok' ? styles.remaining : styles.low} style={{ width: `${bar.remainingPercent}%` }} />
        </Tooltip>
        <Tooltip title={`${t('weight.loss')}: ${kg(bar.loss)}`}>
          <div className={styles.loss} style={{ width: `${bar.lossPercent}%` }} />
        </Tooltip>
      </div>
      <Flex wrap gap="middle" className={styles.legend}>
        <span>
          <span className={`${styles.swatch} ${styles.used}`} />
          {t('weight.used')} {bar.usedPercent}%
        </span>
        <span>
          <span className={`${styles.swatch} ${bar.level === 'ok' ? styles.remaining : styles.low}`} />
          {t('weight.remaining')} {bar.remainingPercent}%
        </span>
        <span>
          <span className={`${styles.swatch} ${styles.loss}`} />
          {t('weight.loss')} {bar.lossPercent}%
        </span>
      </Flex>
      <Typography.Paragraph type="secondary" className={styles.legend}>
        {cap.limit === null
          ? t('weight.capNone', { issued: cap.issued })
          : t('weight.capText', { issued: cap.issued, allowed: cap.allowed, approved: cap.approvedOverCap, left: cap.left ?? 0 })}
      </Typography.Paragraph>
      {cap.limit !== null ? (
        <Progress percent={cap.usedPercent} size="small" status={cap.left === 0 ? 'exception' : 'normal'} aria-label={t('weight.cartons')} />
      ) : null}
    </div>
  );
}

/** The list's weight column: available / used / remaining with a small progress bar. */
export function WeightCell({ weight }: { weight: Weight | undefined }) {
  const { t, i18n } = useTranslation('eudr');
  if (!weight) return null;
  const bar = weightBar(weight);
  return (
    <div className={styles.cell}>
      <Progress
        percent={bar.usedOfAvailablePercent}
        size="small"
        showInfo={false}
        status={bar.level === 'empty' ? 'exception' : 'normal'}
        aria-label={t('weight.usedOfAvailable', { percent: bar.usedOfAvailablePercent })}
      />
      <div className={styles.cellNumbers}>
        {t('weight.cell', {
          available: formatKg(bar.available, i18n.language),
          used: formatKg(bar.used, i18n.language),
          remaining: formatKg(bar.remaining, i18n.language),
        })}
      </div>
    </div>
  );
}
