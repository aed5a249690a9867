import { Alert, Button, Card, Descriptions, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/utils/format';
import { confirmOutsideCountry } from '../api/filedDds';
import { useInvalidateRawMaterial } from '../api/rawMaterials';
import type { RawMaterial } from '../api/types';
import { ReasonDialog } from './dueDiligence/ReasonDialog';
import styles from './eudr.module.css';

interface Props {
  material: RawMaterial;
  /** Internal users with change permission confirm; suppliers and others only read. */
  mayConfirm: boolean;
}

/**
 * Plots lying outside the delivery's country of production: an error of the statement, and hidden from the
 * public trace, until the plot is corrected or an internal user confirms with a reason that it is right
 * (kept with who and when; changed plots are checked again). Shows nothing when every plot lies inside.
 */
export function OutsideCountryCard({ material, mayConfirm }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const invalidate = useInvalidateRawMaterial();
  const [open, setOpen] = useState(false);
  const outside = material.outside_country;
  if (!outside || outside.plots.length === 0) return null;
  const plots = outside.plots.map((index) => String(index + 1)).join(', ');
  const country = material.country_name || material.country_code;

  return (
    <Card title={t('outside.title')} size="small" className={styles.section} data-testid="outside-country">
      {outside.confirmed ? (
        <>
          <Alert type="info" showIcon className={styles.section} title={t('outside.confirmedAlert', { count: outside.plots.length, plots, country })} />
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('outside.reason')}>
              <Typography.Text data-testid="outside-reason">{outside.reason}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('outside.confirmedBy')}>
              {outside.confirmed_by_name} · {outside.confirmed_at ? formatDateTime(outside.confirmed_at, i18n.language) : ''}
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : (
        <>
          <Alert type="error" showIcon className={styles.section} title={t('outside.alert', { count: outside.plots.length, plots, country })} description={t('outside.help')} />
          {mayConfirm ? (
            <Button onClick={() => setOpen(true)} data-testid="outside-confirm">
              {t('outside.confirm')}
            </Button>
          ) : null}
        </>
      )}
      <ReasonDialog
        open={open}
        title={t('outside.dialogTitle')}
        help={t('outside.dialogHelp', { country })}
        okText={t('outside.confirm')}
        done={t('outside.done')}
        testId="outside-dialog"
        submit={async (reason) => {
          await confirmOutsideCountry(material.id, reason);
          await invalidate(material.id);
        }}
        onClose={() => setOpen(false)}
      />
    </Card>
  );
}
