import { Alert, Form, Input, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyApiErrorToForm } from '@/shared/hooks/useApiForm';
import { useErrorText } from '@/shared/errors/errorText';
import { useApproveOverCap } from '../api/rawMaterials';
import type { RawMaterial } from '../api/types';
import styles from './eudr.module.css';

interface Props {
  material: RawMaterial;
  open: boolean;
  onClose: () => void;
  onApproved: (extra: number) => void;
}

interface Values {
  extra_cartons?: number;
  reason?: string;
}

/** Internal users with eudr.approve_over_cap allow extra cartons over the cap; who, when, how many and why is kept. */
export function ApproveOverCapDialog({ material, open, onClose, onApproved }: Props) {
  const { t } = useTranslation('eudr');
  const [form] = Form.useForm<Values>();
  const errorText = useErrorText();
  const approve = useApproveOverCap(material.id);
  const [formError, setFormError] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    setFormError(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('cap.title')}
      okText={t('cap.approve')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={approve.isPending}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
      forceRender
    >
      <Alert type="info" showIcon className={styles.section} title={t('cap.help', { issued: material.issued_cartons, allowed: material.allowed_carton_cap ?? 0, approved: material.approved_over_cap })} />
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={async (values) => {
          setFormError(null);
          try {
            await approve.mutateAsync({ extra_cartons: Number(values.extra_cartons), reason: (values.reason ?? '').trim() });
            onApproved(Number(values.extra_cartons));
            close();
          } catch (error) {
            setFormError(applyApiErrorToForm(form, error, errorText));
          }
        }}
      >
        <Form.Item name="extra_cartons" label={t('cap.extra')} rules={[{ required: true, message: t('cap.extraRequired') }]}>
          <InputNumber<number> min={1} max={1000000} precision={0} className={styles.full} data-testid="cap-extra" />
        </Form.Item>
        <Form.Item name="reason" label={t('cap.reason')} rules={[{ required: true, whitespace: true, message: t('cap.reasonRequired') }]}>
          <Input.TextArea rows={3} maxLength={2000} showCount data-testid="cap-reason" />
        </Form.Item>
      </Form>
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
    </Modal>
  );
}
