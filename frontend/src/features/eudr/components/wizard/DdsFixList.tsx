import { ArrowRightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/shared/session/useSession';
import { ddsChecksQueryOptions } from '../../api/dds';
import type { DdsCheck, RawMaterial } from '../../api/types';
import styles from '../eudr.module.css';
import { stepOfCheck, WIZARD_STEPS } from './wizardModel';

interface Props {
  material: RawMaterial;
  onGoToStep: (step: number) => void;
}

/**
 * What the due diligence package still needs (the server's DDS checks, as they stand for the saved
 * delivery), each with the step of this form that fixes it. Company settings and the like are listed
 * without a link.
 */
export function DdsFixList({ material, onGoToStep }: Props) {
  const { t } = useTranslation('eudr');
  const tenant = useSession((s) => s.tenantId);
  const checks = useQuery(ddsChecksQueryOptions(tenant, material));
  if (!checks.data) return null;
  const found: DdsCheck[] = [...checks.data.errors, ...checks.data.warnings];
  if (found.length === 0) return null;
  const text = (check: DdsCheck) =>
    check.feature === null || check.feature === undefined ? check.message : t('geometry.featureMessage', { number: check.feature + 1, message: check.message });
  return (
    <Alert
      type={checks.data.errors.length > 0 ? 'warning' : 'info'}
      showIcon
      className={styles.section}
      title={checks.data.errors.length > 0 ? t('edit.fixTitle') : t('edit.fixWarningsTitle')}
      description={
        <ul className={styles.fixList} data-testid="dds-fix-list">
          {found.map((check, index) => {
            const step = stepOfCheck(check.code);
            return (
              <li key={`${check.code}-${index}`} data-code={check.code}>
                <Typography.Text type={check.severity === 'error' ? 'danger' : 'warning'}>{t(`geometry.severity.${check.severity}`)}</Typography.Text>
                {': '}
                {text(check)}
                {step !== null ? (
                  <Button type="link" size="small" icon={<ArrowRightOutlined />} iconPlacement="end" onClick={() => onGoToStep(step)} data-testid={`fix-${check.code}`}>
                    {t(`wizard.steps.${WIZARD_STEPS[step] ?? 'basic'}`)}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      }
      data-testid="dds-fix"
    />
  );
}
