import { DeleteOutlined, DownloadOutlined, FileSearchOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { downloadDeliveryFileTemplate, parseDeliveryFile, parseStoredDeliveryFile } from '../../api/rawMaterials';
import { MATERIAL_TYPES, PULP_TYPES } from '../../lib/options';
import { linesRule, materialTypeRule, parseFileRule, pulpTypeRule, weightRule } from '../../lib/validation';
import styles from '../eudr.module.css';
import { LocationEditor } from './LocationEditor';
import type { ParsedDeliveryFile } from '../../api/types';
import { HEADER_FIELDS, type FileValue, type LineValue } from './wizardModel';

const EMPTY_LINE: LineValue = { scientific_names: [], common_names: [] };

interface Props {
  /** The saved draft or delivery: its stored delivery file can be parsed from the server. */
  rawMaterialId?: number | null;
}

/** Step 2: the material lines (typed or parsed from the delivery file) and the plots' GeoJSON. */
export function MaterialDetailsStep({ rawMaterialId = null }: Props) {
  const { t } = useTranslation('eudr');
  const form = Form.useFormInstance();
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const [parsing, setParsing] = useState(false);
  const [parseError, setParseError] = useState<string | null>(null);
  const [parseWarnings, setParseWarnings] = useState<ParsedDeliveryFile['errors']>([]);

  const ruleOf = (rule: (value: unknown) => string | null) => ({
    validator: (_: unknown, value: unknown) => {
      const key = rule(value);
      return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
    },
  });

  const parse = async () => {
    const deliveryFile = form.getFieldValue(['files', 'delivery_file']) as FileValue | null | undefined;
    const chosen = deliveryFile?.file ?? null;
    // A file chosen in this session is read as it is; a stored one is fetched from the server first.
    const stored = !chosen && deliveryFile?.stored && !deliveryFile.remove && rawMaterialId !== null ? deliveryFile.stored : null;
    const missing = parseFileRule(chosen ?? stored);
    setParseWarnings([]);
    if (missing || (!chosen && !stored)) {
      setParseError(t(missing ?? 'validation.deliveryFileRequiredParse'));
      return;
    }
    const apply = async () => {
      setParsing(true);
      setParseError(null);
      try {
        const result = chosen ? await parseDeliveryFile(chosen) : await parseStoredDeliveryFile(rawMaterialId as number, stored?.name ?? 'delivery-file');
        form.setFieldValue(
          'lines',
          result.lines.map((line) => ({
            material_type: line.material_type || undefined,
            weight_kg: line.weight_kg,
            pulp_type: line.pulp_type || undefined,
            pulp_brand: line.pulp_brand ?? '',
            scientific_names: line.scientific_names ?? [],
            common_names: line.common_names ?? [],
          })),
        );
        // Header fields of the file fill what the first step left empty.
        for (const field of HEADER_FIELDS) {
          const value = result.header[field];
          if (value && !form.getFieldValue(field)) form.setFieldValue(field, field === 'country_code' ? value.toUpperCase() : value);
        }
        setParseWarnings(result.errors);
        void message.success(t('wizard.parsed', { count: result.lines.length }));
        void form.validateFields([['lines']]).catch(() => undefined);
      } catch (error) {
        setParseError(errorText(error));
      } finally {
        setParsing(false);
      }
    };
    const current = (form.getFieldValue('lines') as LineValue[] | undefined) ?? [];
    if (current.some((line) => line.material_type || line.weight_kg)) {
      modal.confirm({
        title: t('wizard.replaceLinesTitle'),
        content: t('wizard.replaceLinesText'),
        okText: t('wizard.replaceLines'),
        cancelText: t('common:actions.cancel'),
        onOk: apply,
      });
    } else {
      await apply();
    }
  };

  return (
    <>
      <Card size="small" className={styles.section} title={t('wizard.parseTitle')}>
        <Typography.Paragraph type="secondary">{t('wizard.parseHelp')}</Typography.Paragraph>
        <Flex gap="small" wrap>
          <Button icon={<FileSearchOutlined />} loading={parsing} onClick={() => void parse()} data-testid="parse-delivery-file">
            {t('wizard.parse')}
          </Button>
          <Button
            type="link"
            icon={<DownloadOutlined />}
            onClick={() => void downloadDeliveryFileTemplate('xlsx').catch((error: unknown) => message.error(errorText(error)))}
            data-testid="download-template"
          >
            {t('wizard.template')}
          </Button>
        </Flex>
        {parseError ? <Alert className={styles.section} type="error" showIcon title={parseError} data-testid="parse-error" /> : null}
        {parseWarnings.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            title={t('wizard.parseWarnings')}
            description={
              <ul>
                {parseWarnings.map((w, index) => (
                  <li key={index}>{w.row === null ? w.message : t('wizard.parseRow', { row: w.row, message: w.message })}</li>
                ))}
              </ul>
            }
            data-testid="parse-warnings"
          />
        ) : null}
      </Card>

      <Form.List
        name="lines"
        rules={[
          {
            validator: (_: unknown, lines: unknown[] | undefined) => {
              const key = linesRule(lines);
              return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <Card
                key={field.key}
                size="small"
                className={styles.lineCard}
                title={t('wizard.lineTitle', { number: index + 1 })}
                extra={
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('wizard.removeLine', { number: index + 1 })}
                    onClick={() => remove(field.name)}
                  />
                }
                data-testid={`line-${index}`}
              >
                <Row gutter={16}>
                  <Col xs={24} sm={12} md={6}>
                    <Form.Item name={[field.name, 'material_type']} label={t('fields.material_type')} required rules={[ruleOf(materialTypeRule)]}>
                      <Select
                        options={MATERIAL_TYPES.map((value) => ({ value, label: t(`materialType.${value}`) }))}
                        onChange={() => void form.validateFields([['lines', field.name, 'pulp_type']]).catch(() => undefined)}
                        data-testid={`line-${index}-material-type`}
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} md={6}>
                    <Form.Item name={[field.name, 'weight_kg']} label={t('fields.weight_kg')} required rules={[ruleOf(weightRule)]}>
                      <InputNumber<string>
                        stringMode
                        min="0"
                        step="1"
                        precision={3}
                        className={styles.full}
                        suffix={t('units.kgSuffix')}
                        data-testid={`line-${index}-weight`}
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} md={6}>
                    <Form.Item
                      name={[field.name, 'pulp_type']}
                      label={t('fields.pulp_type')}
                      dependencies={[['lines', field.name, 'material_type']]}
                      rules={[
                        ({ getFieldValue }) => ({
                          validator: (_: unknown, value: unknown) => {
                            const key = pulpTypeRule(getFieldValue(['lines', field.name, 'material_type']), value);
                            return key ? Promise.reject(new Error(t(key))) : Promise.resolve();
                          },
                        }),
                      ]}
                    >
                      <Select allowClear options={PULP_TYPES.map((value) => ({ value, label: t(`pulpType.${value}`) }))} data-testid={`line-${index}-pulp-type`} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} md={6}>
                    <Form.Item name={[field.name, 'pulp_brand']} label={t('fields.pulp_brand')}>
                      <Input maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12}>
                    <Form.Item name={[field.name, 'scientific_names']} label={t('fields.scientific_names')} tooltip={t('wizard.tagsHelp')}>
                      <Select mode="tags" tokenSeparators={[',', ';']} open={false} suffix={null} placeholder={t('wizard.scientificPlaceholder')} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12}>
                    <Form.Item name={[field.name, 'common_names']} label={t('fields.common_names')} tooltip={t('wizard.tagsHelp')}>
                      <Select mode="tags" tokenSeparators={[',', ';']} open={false} suffix={null} placeholder={t('wizard.commonPlaceholder')} />
                    </Form.Item>
                  </Col>
                </Row>
              </Card>
            ))}
            <Form.ErrorList errors={errors} />
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ ...EMPTY_LINE })} data-testid="add-line">
              {t('wizard.addLine')}
            </Button>
          </>
        )}
      </Form.List>

      <LocationEditor />
    </>
  );
}
