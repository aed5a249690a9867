import { Alert, Card, Descriptions, Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MaterialLine, RawMaterial, RawMaterialInput } from '../../api/types';
import { countryName } from '@/shared/countries/countries';
import { formatDate } from '@/shared/utils/format';
import { formatKg } from '../../lib/weight';
import styles from '../eudr.module.css';
import { PolicySummary } from '../PolicySummary';
import { isGeoJsonTextBroken, type WizardValues } from './wizardModel';

interface Props {
  input: RawMaterialInput;
  values: WizardValues;
  parentVendorName: string;
  /** The saved draft: the server fills in the policy that applies to it. */
  saved: RawMaterial | null;
  policyLoading: boolean;
  /** Title of the policy card (default: the policy that will apply). */
  policyTitle?: string;
}

/** Step 3: a readable summary of everything entered and the policy that will apply. */
export function ReviewStep({ input, values, parentVendorName, saved, policyLoading, policyTitle }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const dash = t('common.none');
  const show = (value: string | null | undefined) => (value ? value : dash);
  const total = input.lines.reduce((sum, line) => sum + (Number(line.weight_kg) || 0), 0);
  const files = Object.entries(values.files ?? {}).filter(([, value]) => value?.file ?? (value?.stored && !value.remove));

  return (
    <>
      <Card size="small" title={t('wizard.steps.basic')} className={styles.section}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="review-basic">
          <Descriptions.Item label={t('fields.parent_vendor')}>{show(parentVendorName)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.delivery_number')}>{show(input.delivery_number)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.document_from')}>{show(input.document_from)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.country')}>
            {input.country_code ? `${countryName(input.country_code, i18n.language)} (${input.country_code})` : dash}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.forest_supplier_name')}>{show(input.forest_supplier_name)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.material_sc_number')}>{show(input.material_sc_number)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.harvest')}>
            {input.harvest_begin_month || input.harvest_end_month
              ? t('detail.harvestRange', { begin: input.harvest_begin_month || dash, end: input.harvest_end_month || dash })
              : dash}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.fm_certification_type')}>
            {input.fm_certification_type ? t(`certification.${input.fm_certification_type}`) : dash}
            {input.fm_certificate_number ? ` · ${input.fm_certificate_number}` : ''}
            {input.fm_certificate_expiry ? ` · ${t('detail.expires', { date: formatDate(input.fm_certificate_expiry, i18n.language) })}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.coc_certification')}>
            {show(input.coc_certification)}
            {input.coc_certificate_number ? ` · ${input.coc_certificate_number}` : ''}
            {input.coc_certificate_expiry ? ` · ${t('detail.expires', { date: formatDate(input.coc_certificate_expiry, i18n.language) })}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.upstream_dds_reference')}>{show(input.upstream_dds_reference)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.geolocation_confidential')}>
            {input.geolocation_confidential ? t('common.yes') : t('common.no')}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.location_geojson')}>
            {isGeoJsonTextBroken(values) ? (
              <Typography.Text type="danger">{t('wizard.geojsonSyntax')}</Typography.Text>
            ) : input.location_geojson ? (
              t('wizard.geojsonPresent')
            ) : (
              dash
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.description')} span="filled">
            {show(input.description)}
          </Descriptions.Item>
        </Descriptions>
        <Typography.Text type="secondary">{t('wizard.files')}: </Typography.Text>
        {files.length === 0
          ? dash
          : files.map(([kind, value]) => (
              <Tag key={kind}>
                {t(`fileKind.${kind}`)}: {value?.file?.name ?? value?.stored?.name}
              </Tag>
            ))}
      </Card>

      <Card size="small" title={t('wizard.steps.materials')} className={styles.section}>
        {input.lines.length === 0 ? (
          <Empty description={t('validation.atLeastOneMaterial')} />
        ) : (
          <Table<MaterialLine & { key: number }>
            size="small"
            pagination={false}
            rowKey="key"
            dataSource={input.lines.map((line, index) => ({ ...line, key: index }))}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: t('fields.material_type'), dataIndex: 'material_type', render: (v: string) => (v ? t(`materialType.${v}`) : dash) },
              { title: t('fields.weight_kg'), dataIndex: 'weight_kg', align: 'right', render: (v: string) => formatKg(v, i18n.language) },
              { title: t('fields.pulp_type'), dataIndex: 'pulp_type', render: (v: string) => (v ? t(`pulpType.${v}`) : dash) },
              { title: t('fields.pulp_brand'), dataIndex: 'pulp_brand', render: show },
              { title: t('fields.scientific_names'), dataIndex: 'scientific_names', render: (v: string[]) => v.join(', ') || dash },
              { title: t('fields.common_names'), dataIndex: 'common_names', render: (v: string[]) => v.join(', ') || dash },
            ]}
            summary={() => (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>{t('wizard.total')}</Table.Summary.Cell>
                <Table.Summary.Cell index={1} align="right">
                  {t('units.kg', { value: formatKg(total, i18n.language) })}
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )}
          />
        )}
      </Card>

      <Card size="small" title={policyTitle ?? t('wizard.policyTitle')} className={styles.section} loading={policyLoading}>
        {saved ? (
          <PolicySummary material={saved} />
        ) : (
          <Alert type="info" showIcon title={t('wizard.policyAfterSave')} />
        )}
      </Card>
    </>
  );
}
