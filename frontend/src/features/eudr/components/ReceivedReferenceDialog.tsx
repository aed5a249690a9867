import { Alert, Col, DatePicker, Form, Input, Modal, Row, Select } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { applyApiErrorToForm } from '@/shared/hooks/useApiForm';
import { useParentVendors } from '../api/lookups';
import { useCreateReceivedReference, type ReceivedReference } from '../api/receivedReferences';
import { normaliseReference, normaliseVerification, receivedReferenceValid, receivedVerificationValid } from '../lib/receivedReference';
import styles from './eudr.module.css';

interface Values {
  parent_vendor?: number;
  document_number?: string;
  received_on?: Dayjs | null;
  reference_number?: string;
  verification_number?: string;
  notes?: string;
}

interface Props {
  open: boolean;
  onClose: () => void;
  onSaved: (saved: ReceivedReference) => void;
}

/** Records a reference number (or simplified declaration's identifier) a supplier gave with its goods. */
export function ReceivedReferenceDialog({ open, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const [form] = Form.useForm<Values>();
  const errorText = useErrorText();
  const create = useCreateReceivedReference();
  const vendors = useParentVendors(open);
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ received_on: dayjs() });
  }, [open, form]);

  const submit = async (values: Values) => {
    setFormError(null);
    try {
      const saved = await create.mutateAsync({
        parent_vendor: values.parent_vendor ?? 0,
        document_number: (values.document_number ?? '').trim(),
        received_on: (values.received_on ?? dayjs()).format('YYYY-MM-DD'),
        reference_number: normaliseReference(values.reference_number),
        verification_number: normaliseVerification(values.verification_number),
        notes: (values.notes ?? '').trim(),
      });
      setFormError(null);
      onSaved(saved);
    } catch (error) {
      setFormError(applyApiErrorToForm(form, error, errorText));
    }
  };

  return (
    <Modal
      open={open}
      title={t('received.dialogTitle')}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={() => {
        setFormError(null);
        onClose();
      }}
      width={640}
      forceRender
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" onFinish={(values) => void submit(values)} data-testid="received-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="parent_vendor" label={t('received.supplier')} rules={[{ required: true, message: t('validation.parentVendorRequired') }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={vendors.isLoading}
                options={(vendors.data ?? []).map((v) => ({ value: v.id, label: i18n.language === 'zh' && v.cname ? v.cname : v.name }))}
                data-testid="received-vendor"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="document_number" label={t('received.document')} rules={[{ required: true, whitespace: true, message: t('received.documentRequired') }]}>
              <Input maxLength={100} data-testid="received-document" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="reference_number"
              label={t('received.reference')}
              extra={t('received.referenceHint')}
              rules={[
                { required: true, whitespace: true, message: t('received.referenceRequired') },
                {
                  validator: (_, value?: string) =>
                    value && value.trim() && !receivedReferenceValid(value) ? Promise.reject(new Error(t('received.referenceInvalid'))) : Promise.resolve(),
                },
              ]}
            >
              <Input maxLength={40} autoComplete="off" data-testid="received-reference" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="verification_number"
              label={t('received.verification')}
              extra={t('received.verificationHint')}
              rules={[
                { required: true, whitespace: true, message: t('received.verificationRequired') },
                {
                  validator: (_, value?: string) =>
                    value && value.trim() && !receivedVerificationValid(value) ? Promise.reject(new Error(t('received.verificationInvalid'))) : Promise.resolve(),
                },
              ]}
            >
              <Input maxLength={60} autoComplete="off" data-testid="received-verification" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="received_on" label={t('received.receivedOn')} rules={[{ required: true, message: t('received.receivedOnRequired') }]}>
              <DatePicker className={styles.full} disabledDate={(day) => day.isAfter(dayjs(), 'day')} allowClear={false} data-testid="received-on" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="notes" label={t('fields.notes')}>
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
    </Modal>
  );
}
