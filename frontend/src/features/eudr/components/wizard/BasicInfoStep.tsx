import { Checkbox, Col, DatePicker, Divider, Form, Input, Row, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParentVendors } from '../../api/lookups';
import { FILE_KINDS } from '../../api/types';
import { countryOptions } from '@/shared/countries/countries';
import { CERTIFICATION_TYPES } from '../../lib/options';
import { deliveryNumberRule, harvestRule, parentVendorRule } from '../../lib/validation';
import { FilePicker } from '../FilePicker';
import styles from '../eudr.module.css';
import type { WizardValues } from './wizardModel';

/** What the server accepts (type and content are checked there). */
const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png,.gif,.bmp,.webp,.csv,.xlsx';
const ACCEPT: Record<string, string> = {
  delivery_file: '.csv,.xlsx,.pdf,.jpg,.jpeg,.png',
  location_file: '.geojson,.json,.pdf,.jpg,.jpeg,.png',
};

interface Props {
  /** The supplier's own parent vendor (fixed) and its name; null lets internal users choose. */
  fixedParentVendorName: string | null;
  /** A submitted delivery keeps its parent vendor. */
  parentVendorLocked?: boolean;
}

/** Step 1: who delivered what, from where, with which certificates and documents. */
export function BasicInfoStep({ fixedParentVendorName, parentVendorLocked = false }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const vendors = useParentVendors(fixedParentVendorName === null);
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const certificationOptions = CERTIFICATION_TYPES.map((value) => ({ value, label: t(`certification.${value}`) }));
  const ruleOf = (rule: (value: unknown) => string | null) => ({
    validator: (_: unknown, value: unknown) => {
      const key = rule(value);
      return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
    },
  });

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {fixedParentVendorName === null ? (
            <Form.Item
              name="parent_vendor"
              label={t('fields.parent_vendor')}
              required
              rules={[ruleOf(parentVendorRule)]}
              extra={parentVendorLocked ? t('edit.parentVendorLocked') : undefined}
            >
              <Select
                disabled={parentVendorLocked}
                showSearch={{ optionFilterProp: 'label' }}
                loading={vendors.isLoading}
                placeholder={t('wizard.chooseParentVendor')}
                options={(vendors.data ?? []).map((vendor) => ({
                  value: vendor.id,
                  label: i18n.language === 'zh' && vendor.cname ? vendor.cname : vendor.name,
                }))}
                data-testid="field-parent-vendor"
              />
            </Form.Item>
          ) : (
            <Form.Item label={t('fields.parent_vendor')} required>
              <Typography.Text strong data-testid="fixed-parent-vendor">
                {fixedParentVendorName}
              </Typography.Text>
              <Form.Item name="parent_vendor" noStyle rules={[ruleOf(parentVendorRule)]}>
                <Input type="hidden" />
              </Form.Item>
            </Form.Item>
          )}
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="delivery_number" label={t('fields.delivery_number')} required rules={[ruleOf(deliveryNumberRule)]}>
            <Input maxLength={100} autoComplete="off" data-testid="field-delivery-number" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="document_from" label={t('fields.document_from')}>
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="country_code" label={t('fields.country')}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              allowClear
              placeholder={t('wizard.chooseCountry')}
              options={countries}
              data-testid="field-country"
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="description" label={t('fields.description')}>
            <Input.TextArea rows={2} maxLength={2000} showCount />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('wizard.origin')}</Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="forest_supplier_name" label={t('fields.forest_supplier_name')}>
            <Input maxLength={300} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="material_sc_number" label={t('fields.material_sc_number')}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="harvest_begin_month" label={t('fields.harvest_begin_month')}>
            <DatePicker picker="month" className={styles.full} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="harvest_end_month"
            label={t('fields.harvest_end_month')}
            dependencies={['harvest_begin_month']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_: unknown, value: WizardValues['harvest_end_month']) => {
                  const begin = getFieldValue('harvest_begin_month') as WizardValues['harvest_begin_month'];
                  const key = harvestRule(begin?.format('YYYY-MM'), value?.format('YYYY-MM'));
                  return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
                },
              }),
            ]}
          >
            <DatePicker picker="month" className={styles.full} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="geolocation_confidential" valuePropName="checked" label={t('fields.geolocation_confidential')} tooltip={t('wizard.confidentialHelp')}>
            <Checkbox>{t('wizard.confidentialLabel')}</Checkbox>
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('wizard.certifications')}</Divider>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="fm_certification_type" label={t('fields.fm_certification_type')}>
            <Select allowClear options={certificationOptions} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="fm_certificate_number" label={t('fields.fm_certificate_number')}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="fm_certificate_expiry" label={t('fields.fm_certificate_expiry')}>
            <DatePicker className={styles.full} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="coc_certification" label={t('fields.coc_certification')} tooltip={t('wizard.cocHelp')}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="coc_certificate_number" label={t('fields.coc_certificate_number')}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="coc_certificate_expiry" label={t('fields.coc_certificate_expiry')}>
            <DatePicker className={styles.full} />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('wizard.upstreamDds')}</Divider>
      <Typography.Paragraph type="secondary">{t('wizard.upstreamDdsHelp')}</Typography.Paragraph>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="upstream_dds_reference" label={t('fields.upstream_dds_reference')}>
            <Input maxLength={14} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="upstream_dds_verification" label={t('fields.upstream_dds_verification')}>
            <Input maxLength={35} />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('wizard.files')}</Divider>
      <Row gutter={16}>
        {FILE_KINDS.map((kind) => (
          <Col key={kind} xs={24} md={12}>
            <Form.Item name={['files', kind]} label={t(`fileKind.${kind}`)}>
              <FilePicker accept={ACCEPT[kind] ?? DOCUMENT_ACCEPT} testId={`file-${kind}`} />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </>
  );
}
