import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Radio, Row, Select, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNTRY_CODES, EU_MEMBER_STATES, countryOptions } from '@/shared/countries/countries';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import {
  useUpdateCompanySettings,
  type CompanySettings,
  type CompanySettingsInput,
  type OperatorRole,
} from '../api/companySettings';
import { isBic, isEori, isIban, isPhone, isVat } from './operatorRules';
import styles from './CompanySettingsForm.module.css';

export type CompanySettingsValues = Required<Omit<CompanySettingsInput, 'operator_role'>> & { operator_role: OperatorRole };

const REPRESENTATIVE: OperatorRole = 'REPRESENTATIVE_OPERATOR';
const IMPORT_ROLES = ['operator', 'none'] as const;
const PURCHASE_ROLES = ['downstream', 'none'] as const;
const PRIMARY_ROLES = ['micro_small_primary', 'none'] as const;
/** A simplified declaration's identifier as the EU information system writes it (S26FRNMNBSA96Q). */
const SD_ID = /^S[0-9]{2}[A-Z]{2}[A-Z0-9]{9}$/;
const ROLES: OperatorRole[] = ['OPERATOR', 'REPRESENTATIVE_OPERATOR'];

export function toValues(settings: CompanySettings): CompanySettingsValues {
  return {
    legal_name: settings.legal_name ?? '',
    address: settings.address ?? '',
    country: settings.country ?? '',
    eori_number: settings.eori_number ?? '',
    vat_number: settings.vat_number ?? '',
    email: settings.email ?? '',
    phone: settings.phone ?? '',
    operator_role: settings.operator_role ?? 'OPERATOR',
    represented_operator_name: settings.represented_operator_name ?? '',
    represented_operator_address: settings.represented_operator_address ?? '',
    represented_operator_street: settings.represented_operator_street ?? '',
    represented_operator_postal_code: settings.represented_operator_postal_code ?? '',
    represented_operator_city: settings.represented_operator_city ?? '',
    represented_operator_country: settings.represented_operator_country ?? '',
    represented_operator_eori: settings.represented_operator_eori ?? '',
    represented_operator_vat: settings.represented_operator_vat ?? '',
    represented_operator_email: settings.represented_operator_email ?? '',
    represented_operator_phone: settings.represented_operator_phone ?? '',
    allow_backorders: settings.allow_backorders ?? false,
    allow_negative_stock: settings.allow_negative_stock ?? false,
    eudr_import_role: settings.eudr_import_role ?? 'operator',
    eudr_purchase_role: settings.eudr_purchase_role ?? 'none',
    eudr_primary_role: settings.eudr_primary_role ?? 'none',
    eudr_is_sme: settings.eudr_is_sme ?? false,
    simplified_declaration_id: settings.simplified_declaration_id ?? '',
    allow_unlabelled_shipping: settings.allow_unlabelled_shipping ?? false,
    registration_number: settings.registration_number ?? '',
    iban: settings.iban ?? '',
    bic: settings.bic ?? '',
    payment_terms_days: settings.payment_terms_days ?? 30,
    allow_uncovered_shipping: settings.allow_uncovered_shipping ?? false,
    public_trace_max_age: settings.public_trace_max_age ?? 300,
  };
}

const upper = (value: string | undefined) => (value ?? '').toUpperCase();

/** The company's operator details (EUDR): legal name, address, country of activity, EORI/VAT, contact,
 * the operator role and, for an authorised representative, the represented operator. */
export function CompanySettingsForm({ settings }: { settings: CompanySettings }) {
  const { t, i18n } = useTranslation('company');
  const { message } = App.useApp();
  const update = useUpdateCompanySettings();
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesGuard(dirty);
  const editable = settings.can_edit;
  // Examples in empty fields help while editing; in a read-only form they would look like values.
  const example = (text: string) => (editable ? text : undefined);

  const { form, onFinish, submitting, formError } = useApiForm<CompanySettingsValues, CompanySettings>({
    submit: (values) => update.mutateAsync(values),
    onSuccess: (saved) => {
      setDirty(false);
      // The server's spelling (identifiers without spaces, upper case) becomes what the form shows.
      form.setFieldsValue(toValues(saved));
      void message.success(t('saved'));
    },
  });
  const role = Form.useWatch('operator_role', form) ?? settings.operator_role;
  const importRole = Form.useWatch('eudr_import_role', form) ?? settings.eudr_import_role ?? 'operator';
  const primaryRole = Form.useWatch('eudr_primary_role', form) ?? settings.eudr_primary_role ?? 'none';
  // The pages ask only what the role needs: the filing role and the represented operator only for an
  // operator that files statements, the simplified declaration only for a micro or small primary operator.
  const files = importRole === 'operator';
  const representative = files && role === REPRESENTATIVE;

  const euCountries = useMemo(() => countryOptions(i18n.language, EU_MEMBER_STATES), [i18n.language]);
  const allCountries = useMemo(() => countryOptions(i18n.language, COUNTRY_CODES), [i18n.language]);

  const max = (n: number): Rule => ({ max: n, message: t('validation.maxLength', { count: n }) });
  const format = (test: (value: string) => boolean, key: string): Rule => ({
    validator: (_rule, value: string | undefined) => (test(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t(key)))),
  });
  const eori: Rule = format(isEori, 'validation.eori');
  const vat: Rule = format(isVat, 'validation.vat');
  const phone: Rule = format(isPhone, 'validation.phone');
  const iban: Rule = format(isIban, 'validation.iban');
  const bic: Rule = format(isBic, 'validation.bic');
  const ibanForBic: Rule = ({ getFieldValue }) => ({
    validator: () => (getFieldValue('bic') && !getFieldValue('iban') ? Promise.reject(new Error(t('validation.bicWithoutIban'))) : Promise.resolve()),
  });
  const registration: Rule = format((value) => !value.trim() || /^[A-Za-z0-9][A-Za-z0-9 ./-]{0,39}$/.test(value.trim()), 'validation.registration');
  const email: Rule = { type: 'email', message: t('validation.email') };
  const requiredForRepresentative: Rule = { required: true, whitespace: true, message: t('validation.requiredForRepresentative') };
  const representedIdentifier: Rule = ({ getFieldValue }) => ({
    validator: () =>
      getFieldValue('represented_operator_eori') || getFieldValue('represented_operator_vat')
        ? Promise.resolve()
        : Promise.reject(new Error(t('validation.representedIdentifier'))),
  });

  const countrySelect = (options: typeof euCountries, testId: string) => (
    <Select showSearch={{ optionFilterProp: 'label' }} allowClear options={options} placeholder={example(t('placeholders.country'))} data-testid={testId} />
  );

  return (
    <Form<CompanySettingsValues>
      form={form}
      layout="vertical"
      disabled={!editable}
      initialValues={toValues(settings)}
      onFinish={(values) => void onFinish(values)}
      onValuesChange={() => setDirty(true)}
      data-testid="company-settings-form"
    >
      <Card title={t('sections.company')} className={styles.section}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label={t('fields.name')} extra={t('help.name')}>
              <Typography.Text strong data-testid="company-name">
                {settings.name}
              </Typography.Text>
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="legal_name" label={t('fields.legal_name')} extra={t('help.legal_name')} rules={[max(300)]}>
              <Input placeholder={example(settings.name)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item name="address" label={t('fields.address')} extra={t('help.address')} rules={[max(500)]}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="country" label={t('fields.country')} extra={t('help.country')}>
              {countrySelect(euCountries, 'company-country')}
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sections.identifiers')} className={styles.section}>
        <Typography.Paragraph type="secondary">{t('help.identifiers')}</Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="eori_number" label={t('fields.eori_number')} extra={t('help.eori')} normalize={upper} rules={[eori]}>
              <Input placeholder={example(t('placeholders.eori'))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="vat_number" label={t('fields.vat_number')} extra={t('help.vat')} normalize={upper} rules={[vat]}>
              <Input placeholder={example(t('placeholders.vat'))} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sections.payment')} className={styles.section} data-testid="payment-details">
        <Typography.Paragraph type="secondary">{t('help.payment')}</Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="registration_number" label={t('fields.registration_number')} extra={t('help.registration_number')} rules={[registration]}>
              <Input placeholder={example(t('placeholders.registration_number'))} data-testid="registration-number" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="payment_terms_days" label={t('fields.payment_terms_days')} extra={t('help.payment_terms_days')}>
              <InputNumber min={0} max={365} precision={0} suffix={t('days')} data-testid="payment-terms-days" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="iban"
              label={t('fields.iban')}
              extra={t('help.iban')}
              normalize={upper}
              dependencies={['bic']}
              rules={[iban, ibanForBic]}
            >
              <Input placeholder={example('NL91 ABNA 0417 1643 00')} data-testid="iban" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="bic" label={t('fields.bic')} normalize={upper} rules={[bic]}>
              <Input placeholder={example('ABNANL2A')} data-testid="bic" />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sections.contact')} className={styles.section}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="email" label={t('fields.email')} rules={[email]}>
              <Input type="email" placeholder={example(t('placeholders.email'))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="phone" label={t('fields.phone')} rules={[max(50), phone]}>
              <Input placeholder={example(t('placeholders.phone'))} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sections.eudrRoles')} className={styles.section} data-testid="eudr-roles">
        <Typography.Paragraph type="secondary">{t('help.eudrRoles')}</Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="eudr_import_role" label={t('fields.eudr_import_role')}>
              <Select
                options={IMPORT_ROLES.map((value) => ({ value, label: t(`eudrRoles.import.${value}`) }))}
                data-testid="eudr-import-role"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="eudr_purchase_role" label={t('fields.eudr_purchase_role')}>
              <Select
                options={PURCHASE_ROLES.map((value) => ({ value, label: t(`eudrRoles.purchase.${value}`) }))}
                data-testid="eudr-purchase-role"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="eudr_primary_role" label={t('fields.eudr_primary_role')}>
              <Select
                options={PRIMARY_ROLES.map((value) => ({ value, label: t(`eudrRoles.primary.${value}`) }))}
                data-testid="eudr-primary-role"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="eudr_is_sme" valuePropName="checked" label={t('fields.eudr_is_sme')} extra={t('help.eudr_is_sme')}>
              <Switch disabled={!editable} data-testid="eudr-is-sme" />
            </Form.Item>
          </Col>
          {primaryRole === 'micro_small_primary' ? (
            <Col xs={24} md={12}>
              <Form.Item
                name="simplified_declaration_id"
                label={t('fields.simplified_declaration_id')}
                normalize={(value: string | undefined) => (value ?? '').trim().toUpperCase()}
                rules={[
                  { required: true, message: t('validation.simplifiedDeclarationRequired') },
                  format((value) => !value || SD_ID.test(value), 'validation.simplifiedDeclaration'),
                ]}
              >
                <Input placeholder={example('S26FRNMNBSA96Q')} data-testid="simplified-declaration-id" />
              </Form.Item>
            </Col>
          ) : null}
        </Row>
        <Typography.Paragraph data-testid="eudr-duties">
          {(settings.eudr_duties ?? []).length
            ? (settings.eudr_duties ?? []).map((duty) => t(`duties.${duty}`)).join(' ')
            : t('duties.none')}
        </Typography.Paragraph>
      </Card>

      {files ? (
      <Card title={t('sections.role')} className={styles.section}>
        <Form.Item name="operator_role" className={styles.roleItem}>
          <Radio.Group data-testid="operator-role">
            <Flex vertical gap="small">
              {ROLES.map((value) => (
                <Radio key={value} value={value} data-testid={`operator-role-${value}`}>
                  <span className={styles.roleLabel}>{t(`roles.${value}.label`)}</span>
                  <Typography.Text type="secondary" className={styles.roleHelp}>
                    {t(`roles.${value}.help`)}
                  </Typography.Text>
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
        </Form.Item>
      </Card>
      ) : null}

      {representative ? (
        <Card title={t('sections.represented')} className={styles.section} data-testid="represented-operator">
          <Typography.Paragraph type="secondary">{t('help.represented')}</Typography.Paragraph>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="represented_operator_name" label={t('fields.represented_operator_name')} rules={[requiredForRepresentative, max(300)]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="represented_operator_country" label={t('fields.represented_operator_country')} rules={[requiredForRepresentative]}>
                {countrySelect(allCountries, 'represented-country')}
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="represented_operator_street" label={t('fields.represented_operator_street')} rules={[requiredForRepresentative, max(300)]}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="represented_operator_postal_code" label={t('fields.represented_operator_postal_code')} rules={[requiredForRepresentative, max(80)]}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="represented_operator_city" label={t('fields.represented_operator_city')} rules={[requiredForRepresentative, max(200)]}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item
                name="represented_operator_address"
                label={t('fields.represented_operator_address')}
                extra={t('help.represented_full_address')}
                rules={[max(250)]}
              >
                <Input.TextArea autoSize={{ minRows: 1, maxRows: 3 }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="represented_operator_eori"
                label={t('fields.represented_operator_eori')}
                normalize={upper}
                dependencies={['represented_operator_vat']}
                rules={[eori, representedIdentifier]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="represented_operator_vat" label={t('fields.represented_operator_vat')} normalize={upper} rules={[vat]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="represented_operator_email" label={t('fields.represented_operator_email')} rules={[email]}>
                <Input type="email" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="represented_operator_phone" label={t('fields.represented_operator_phone')} rules={[max(50), phone]}>
                <Input />
              </Form.Item>
            </Col>
          </Row>
        </Card>
      ) : null}

      <Card title={t('sections.stock')} className={styles.section}>
        <Form.Item name="allow_backorders" valuePropName="checked" label={t('fields.allow_backorders')} extra={t('help.allow_backorders')}>
          <Switch disabled={!editable} data-testid="allow-backorders" />
        </Form.Item>
        <Form.Item name="allow_negative_stock" valuePropName="checked" label={t('fields.allow_negative_stock')} extra={t('help.allow_negative_stock')}>
          <Switch disabled={!editable} data-testid="allow-negative-stock" />
        </Form.Item>
        <Form.Item
          name="allow_unlabelled_shipping"
          valuePropName="checked"
          label={t('fields.allow_unlabelled_shipping')}
          extra={t('help.allow_unlabelled_shipping')}
        >
          <Switch disabled={!editable} data-testid="allow-unlabelled-shipping" />
        </Form.Item>
        <Form.Item
          name="allow_uncovered_shipping"
          valuePropName="checked"
          label={t('fields.allow_uncovered_shipping')}
          extra={t('help.allow_uncovered_shipping')}
        >
          <Switch disabled={!editable} data-testid="allow-uncovered-shipping" />
        </Form.Item>
        <Form.Item name="public_trace_max_age" label={t('fields.public_trace_max_age')} extra={t('help.public_trace_max_age')}>
          <InputNumber min={0} max={86400} precision={0} suffix={t('seconds')} disabled={!editable} data-testid="public-trace-max-age" />
        </Form.Item>
      </Card>

      {formError ? <Alert type="error" showIcon title={formError} className={styles.section} data-testid="company-settings-error" /> : null}
      {editable ? (
        <Flex justify="flex-end" gap="small" className={styles.section}>
          <Button
            disabled={!dirty || submitting}
            onClick={() => {
              form.resetFields();
              setDirty(false);
            }}
          >
            {t('discard')}
          </Button>
          <Button type="primary" htmlType="submit" loading={submitting} disabled={!dirty} data-testid="company-settings-save">
            {t('save')}
          </Button>
        </Flex>
      ) : null}
    </Form>
  );
}
