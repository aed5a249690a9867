import { Alert, Descriptions, Drawer, Empty, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { usePhone } from '@/shared/hooks/usePhone';
import { useReferencedStatement, type ReceivedReference } from '../api/receivedReferences';
import styles from './eudr.module.css';

interface Props {
  /** The received reference whose statement is read; null closes the drawer. */
  reference: ReceivedReference | null;
  onClose: () => void;
}

/** The referenced statement as the EU information system answers it (never the geometries). */
export function ReferencedStatementDrawer({ reference, onClose }: Props) {
  const { t } = useTranslation('eudr');
  const errorText = useErrorText();
  const phone = usePhone();
  const statement = useReferencedStatement(reference?.id ?? null);
  const data = statement.data;

  return (
    <Drawer
      open={reference !== null}
      onClose={onClose}
      title={t('received.statementTitle', { reference: reference?.reference_number ?? '' })}
      size={phone ? 'default' : 640}
      destroyOnHidden
    >
      {statement.isLoading ? <Skeleton active /> : null}
      {statement.isError ? <Alert type="error" showIcon title={errorText(statement.error)} data-testid="statement-error" /> : null}
      {data ? (
        <div data-testid="referenced-statement">
          <Descriptions column={1} size="small" bordered className={styles.lineCard}>
            <Descriptions.Item label={t('received.activity')}>{data.activity_type ? t(`received.activityType.${data.activity_type}`, { defaultValue: data.activity_type }) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('received.geolocation')}>{data.geolocation_confidential ? t('received.geolocationConfidential') : t('received.geolocationShared')}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('received.commodities', { count: data.commodities.length })}</Typography.Title>
          {data.commodities.length === 0 ? (
            <Empty description={t('received.noCommodities')} />
          ) : (
            data.commodities.map((item, index) => (
              <Descriptions key={index} column={1} size="small" bordered className={styles.lineCard}>
                <Descriptions.Item label={t('received.hsHeading')}>
                  <Tag>{item.hs_heading || '—'}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('received.description')}>{item.description || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('received.netWeight')}>{item.net_weight ? t('units.kg', { value: item.net_weight }) : '—'}</Descriptions.Item>
                <Descriptions.Item label={t('received.species')}>
                  {(item.species ?? []).length ? (item.species ?? []).map((s) => [s.scientific_name, s.common_name].filter(Boolean).join(' · ')).join('; ') : '—'}
                </Descriptions.Item>
                <Descriptions.Item label={t('received.producerCountries')}>
                  {(item.producer_countries ?? []).length ? (item.producer_countries ?? []).map((c) => <Tag key={c}>{c}</Tag>) : '—'}
                </Descriptions.Item>
              </Descriptions>
            ))
          )}
        </div>
      ) : null}
    </Drawer>
  );
}
