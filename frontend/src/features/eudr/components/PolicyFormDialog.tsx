import { Alert, Col, DatePicker, Form, Input, InputNumber, Modal, Row, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { applyApiErrorToForm } from '@/shared/hooks/useApiForm';
import { useParentVendors } from '../api/lookups';
import { useSavePolicy } from '../api/policies';
import type { SupplierPolicy } from '../api/types';
import { CAP_MODES, MATERIAL_TYPES } from '../lib/options';
import styles from './eudr.module.css';

interface Values {
  parent_vendor?: number | null;
  material_type?: SupplierPolicy['material_type'];
  min_consumption_per_carton?: string;
  loss_rate_percent?: string;
  order_tolerance_percent?: string;
  cap_mode?: SupplierPolicy['cap_mode'];
  cap_value?: number | null;
  valid_from?: Dayjs | null;
  is_active?: boolean;
  notes?: string;
}

interface Props {
  /** The policy to edit; null creates one. */
  policy: SupplierPolicy | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

const ALL = 0;

/** Creates or edits a supplier policy: per parent vendor (or the tenant default), optionally per material type. */
export function PolicyFormDialog({ policy, open, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const [form] = Form.useForm<Values>();
  const errorText = useErrorText();
  const save = useSavePolicy();
  const vendors = useParentVendors(open);
  const [formError, setFormError] = useState<string | null>(null);
  const capMode = Form.useWatch('cap_mode', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      policy
        ? {
            parent_vendor: policy.parent_vendor ?? ALL,
            material_type: policy.material_type || '',
            min_consumption_per_carton: policy.min_consumption_per_carton,
            loss_rate_percent: policy.loss_rate_percent,
            order_tolerance_percent: policy.order_tolerance_percent,
            cap_mode: policy.cap_mode,
            cap_value: policy.cap_value,
            valid_from: policy.valid_from ? dayjs(policy.valid_from) : null,
            is_active: policy.is_active,
            notes: policy.notes,
          }
        : { parent_vendor: undefined, material_type: '', loss_rate_percent: '0', order_tolerance_percent: '10', cap_mode: 'by_weight', valid_from: dayjs(), is_active: true },
    );
  }, [open, policy, form]);

  const submit = async (values: Values) => {
    setFormError(null);
    try {
      await save.mutateAsync({
        id: policy?.id,
        input: {
          parent_vendor: values.parent_vendor === ALL || values.parent_vendor === undefined ? null : values.parent_vendor,
          material_type: values.material_type ?? '',
          min_consumption_per_carton: String(values.min_consumption_per_carton ?? ''),
          loss_rate_percent: String(values.loss_rate_percent ?? '0'),
          order_tolerance_percent: String(values.order_tolerance_percent ?? '0'),
          cap_mode: values.cap_mode ?? 'by_weight',
          cap_value: values.cap_mode === 'fixed' ? (values.cap_value ?? null) : null,
          valid_from: (values.valid_from ?? dayjs()).format('YYYY-MM-DD'),
          is_active: values.is_active ?? true,
          notes: (values.notes ?? '').trim(),
        },
      });
      onSaved();
    } catch (error) {
      setFormError(applyApiErrorToForm(form, error, errorText));
    }
  };

  return (
    <Modal
      open={open}
      title={policy ? t('policy.editTitle') : t('policy.newTitle')}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={640}
      forceRender
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" onFinish={(values) => void submit(values)} data-testid="policy-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="parent_vendor" label={t('fields.parent_vendor')} rules={[{ required: true, message: t('validation.parentVendorRequired') }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={vendors.isLoading}
                options={[
                  { value: ALL, label: t('policy.allVendors') },
                  ...(vendors.data ?? []).map((v) => ({ value: v.id, label: i18n.language === 'zh' && v.cname ? v.cname : v.name })),
                ]}
                data-testid="policy-vendor"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="material_type" label={t('fields.material_type')}>
              <Select options={[{ value: '', label: t('policy.allMaterials') }, ...MATERIAL_TYPES.map((v) => ({ value: v, label: t(`materialType.${v}`) }))]} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="min_consumption_per_carton"
              label={t('fields.min_consumption_per_carton')}
              rules={[{ required: true, message: t('policy.minRequired') }]}
              tooltip={t('policy.minHelp')}
            >
              <InputNumber<string> stringMode min="0.001" step="0.01" precision={3} suffix={t('units.kgSuffix')} className={styles.full} data-testid="policy-min" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="loss_rate_percent" label={t('fields.loss_rate_percent')} rules={[{ required: true, message: t('policy.lossRequired') }]} tooltip={t('policy.lossHelp')}>
              <InputNumber<string> stringMode min="0" max="100" step="0.5" precision={2} suffix={t('units.percentSuffix')} className={styles.full} data-testid="policy-loss" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="order_tolerance_percent" label={t('fields.order_tolerance_percent')} rules={[{ required: true, message: t('policy.toleranceRequired') }]} tooltip={t('policy.toleranceHelp')}>
              <InputNumber<string> stringMode min="0" max="100" step="1" precision={2} suffix={t('units.percentSuffix')} className={styles.full} data-testid="policy-tolerance" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="cap_mode" label={t('fields.cap_mode')}>
              <Select options={CAP_MODES.map((v) => ({ value: v, label: t(`capMode.${v}`) }))} data-testid="policy-cap-mode" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            {capMode === 'fixed' ? (
              <Form.Item name="cap_value" label={t('fields.cap_value')} rules={[{ required: true, message: t('policy.capValueRequired') }]}>
                <InputNumber<number> min={1} precision={0} className={styles.full} />
              </Form.Item>
            ) : null}
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="valid_from" label={t('fields.valid_from')}>
              <DatePicker className={styles.full} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="is_active" label={t('fields.is_active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="notes" label={t('fields.notes')}>
              <Input.TextArea rows={2} maxLength={2000} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
    </Modal>
  );
}
