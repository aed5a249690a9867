import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RawMaterial } from '../api/types';
import { formatKg } from '../lib/weight';

/** The policy snapshot of a delivery: where it came from and what it decides. */
export function PolicySummary({ material }: { material: RawMaterial }) {
  const { t, i18n } = useTranslation('eudr');
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="policy-summary">
      <Descriptions.Item label={t('fields.policy_source')} span="filled">
        {material.policy_source || t('common.none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('fields.min_consumption_per_carton')}>
        {t('units.kg', { value: formatKg(material.min_consumption_per_carton, i18n.language) })}
      </Descriptions.Item>
      <Descriptions.Item label={t('fields.loss_rate_percent')}>{t('units.percent', { value: Number(material.loss_rate_percent) })}</Descriptions.Item>
      <Descriptions.Item label={t('fields.allowed_carton_cap')}>
        {material.allowed_carton_cap === null ? t('policy.noCap') : material.allowed_carton_cap}
      </Descriptions.Item>
    </Descriptions>
  );
}
