import { CheckCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Form, Input, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { validateGeoJson } from '../../api/dds';
import type { GeoJsonValidation } from '../../api/types';
import styles from '../eudr.module.css';
import { GeometryProblems } from '../GeometryProblems';
import { PlotsPreview } from '../PlotsPreview';
import { featureCount, parseGeoJsonText } from './wizardModel';

const MAX_GEOJSON_BYTES = 25 * 1024 * 1024;

/** The plots' GeoJSON: pasted or read from a file, checked against the EU rules by the server, previewed on a map. */
export function LocationEditor() {
  const { t } = useTranslation('eudr');
  const form = Form.useFormInstance();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const text = Form.useWatch('location_geojson_text', form) as string | undefined;
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<GeoJsonValidation | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);

  // Parsed once per text, so the map redraws only when the plots change.
  const { parsed, syntaxError } = useMemo(() => {
    try {
      return { parsed: parseGeoJsonText(text), syntaxError: false };
    } catch {
      return { parsed: null, syntaxError: true };
    }
  }, [text]);

  const check = async () => {
    setResult(null);
    setCheckError(null);
    if (!parsed) return;
    setChecking(true);
    try {
      setResult(await validateGeoJson(parsed));
    } catch (error) {
      setCheckError(errorText(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Card size="small" className={styles.section} title={t('wizard.locationTitle')}>
      <Typography.Paragraph type="secondary">{t('wizard.locationHelp')}</Typography.Paragraph>
      <Form.Item
        name="location_geojson_text"
        label={t('fields.location_geojson')}
        rules={[
          {
            validator: (_: unknown, value: string | undefined) => {
              try {
                parseGeoJsonText(value);
                return Promise.resolve();
              } catch {
                return Promise.reject(new Error(t('wizard.geojsonSyntax')));
              }
            },
          },
        ]}
      >
        <Input.TextArea
          rows={6}
          className={styles.geojsonText}
          placeholder={t('wizard.geojsonPlaceholder')}
          onChange={() => {
            setResult(null);
            setCheckError(null);
          }}
          data-testid="field-geojson"
        />
      </Form.Item>
      <Flex gap="small" wrap className={styles.section}>
        <Upload
          accept=".geojson,.json,application/geo+json,application/json"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > MAX_GEOJSON_BYTES) {
              void message.error(t('wizard.geojsonTooLarge'));
              return false;
            }
            void file.text().then((content) => {
              form.setFieldValue('location_geojson_text', content);
              setResult(null);
              void form.validateFields(['location_geojson_text']).catch(() => undefined);
            });
            return false;
          }}
        >
          <Button icon={<UploadOutlined />}>{t('wizard.geojsonUpload')}</Button>
        </Upload>
        <Button icon={<CheckCircleOutlined />} disabled={!parsed || syntaxError} loading={checking} onClick={() => void check()} data-testid="validate-geojson">
          {t('wizard.geojsonValidate')}
        </Button>
      </Flex>
      {checkError ? <Alert type="error" showIcon title={checkError} className={styles.section} /> : null}
      {result ? (
        result.valid && result.problems.length === 0 ? (
          <Alert type="success" showIcon title={t('wizard.geojsonValid', { count: featureCount(result.feature_collection), area: result.total_area_ha.toFixed(2) })} className={styles.section} data-testid="geojson-valid" />
        ) : (
          <GeometryProblems problems={result.problems} onSelectFeature={setSelected} />
        )
      ) : null}
      {parsed && !syntaxError ? (
        <PlotsPreview
          geojson={result?.feature_collection ?? parsed}
          areas={result?.areas_ha}
          problems={result?.problems}
          selected={selected}
          onSelect={setSelected}
          height={320}
        />
      ) : null}
    </Card>
  );
}
