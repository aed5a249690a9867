import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Descriptions, Form, Input, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { voidFiledDds, recordFiledDds } from '../api/filedDds';
import { useInvalidateRawMaterial } from '../api/rawMaterials';
import type { RawMaterial } from '../api/types';
import { compact, REFERENCE_MAX, referenceValid, VERIFICATION_MAX, VERIFICATION_MIN, verificationValid } from '../lib/filedDds';
import styles from './eudr.module.css';
import { ReasonDialog } from './dueDiligence/ReasonDialog';
import { formatDateTime } from '@/shared/utils/format';

interface Props {
  material: RawMaterial;
  /** The supplier portal: the reference number only, read-only. */
  supplier: boolean;
  /** The user may record and clear the statement (internal users with change permission). */
  mayChange: boolean;
}

/** The tenant's filed due diligence statement: what the EU information system answered, when and by whom. */
export function FiledStatementCard({ material, supplier, mayChange }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const invalidate = useInvalidateRawMaterial();
  const [open, setOpen] = useState(false);
  const filed = Boolean(material.dds_reference_number);
  const editable = mayChange && !supplier && material.status !== 'draft';

  // A recorded statement is kept five years: it is voided with a reason, never deleted (docs/duediligence.md).
  const [voiding, setVoiding] = useState(false);

  const extra = editable ? (
    <>
      <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setOpen(true)} data-testid="filed-record">
        {filed ? t('filed.change') : t('filed.record')}
      </Button>
      {filed ? (
        <Button size="small" type="link" danger icon={<DeleteOutlined />} onClick={() => setVoiding(true)} data-testid="filed-clear">
          {t('filed.clear')}
        </Button>
      ) : null}
    </>
  ) : null;

  return (
    <Card title={t('filed.title')} size="small" className={styles.section} extra={extra} data-testid="filed-statement">
      {filed ? (
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('filed.reference')}>
            <Typography.Text copyable strong data-testid="filed-reference">
              {material.dds_reference_number}
            </Typography.Text>
          </Descriptions.Item>
          {supplier ? null : (
            <Descriptions.Item label={t('filed.verification')}>
              <Typography.Text copyable data-testid="filed-verification">
                {material.dds_verification_number || t('common.none')}
              </Typography.Text>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('filed.filedAt')}>{material.dds_filed_at ? formatDateTime(material.dds_filed_at, i18n.language) : t('common.none')}</Descriptions.Item>
          {supplier ? null : <Descriptions.Item label={t('filed.filedBy')}>{material.dds_filed_by_name || t('common.none')}</Descriptions.Item>}
        </Descriptions>
      ) : (
        <Typography.Text type="secondary" data-testid="filed-none">
          {t('filed.none')}
        </Typography.Text>
      )}
      {editable ? <FiledStatementDialog material={material} open={open} onClose={() => setOpen(false)} /> : null}
      {editable && filed ? (
        <ReasonDialog
          open={voiding}
          title={t('filed.clearQuestion')}
          help={t('filed.clearText')}
          okText={t('filed.clear')}
          danger
          done={t('filed.cleared')}
          testId="filed-clear-dialog"
          submit={async (reason) => {
            await voidFiledDds(material.id, reason);
            await invalidate(material.id);
          }}
          onClose={() => setVoiding(false)}
        />
      ) : null}
    </Card>
  );
}

interface Values {
  dds_reference_number?: string;
  dds_verification_number?: string;
  dds_filed_at?: Dayjs | null;
}

interface DialogProps {
  material: RawMaterial;
  open: boolean;
  onClose: () => void;
}

/** Records the numbers the EU information system answered; server field errors land on their fields. */
export function FiledStatementDialog({ material, open, onClose }: DialogProps) {
  const { t } = useTranslation('eudr');
  const { message } = App.useApp();
  const invalidate = useInvalidateRawMaterial();
  const { form, onFinish, submitting, formError, clearFormError } = useApiForm<Values>({
    submit: (values) =>
      recordFiledDds(material.id, {
        dds_reference_number: compact(values.dds_reference_number).toUpperCase(),
        dds_verification_number: compact(values.dds_verification_number),
        dds_filed_at: values.dds_filed_at ? values.dds_filed_at.toISOString() : null,
      }),
    onSuccess: () => {
      void invalidate(material.id);
      void message.success(t('filed.saved'));
      onClose();
    },
  });

  const close = () => {
    clearFormError();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('filed.dialogTitle')}
      okText={t('filed.save')}
      okButtonProps={{ 'data-testid': 'filed-save' }}
      cancelText={t('common:actions.cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Alert type="info" showIcon className={styles.section} title={t('filed.help')} />
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) => void onFinish(values)}
        initialValues={{
          dds_reference_number: material.dds_reference_number ?? '',
          dds_verification_number: material.dds_verification_number ?? '',
          dds_filed_at: material.dds_filed_at ? dayjs(material.dds_filed_at) : dayjs(),
        }}
      >
        <Form.Item
          name="dds_reference_number"
          label={t('filed.reference')}
          extra={t('filed.referenceHint', { max: REFERENCE_MAX })}
          rules={[
            { required: true, whitespace: true, message: t('filed.referenceRequired') },
            { validator: (_r, value?: string) => (!compact(value) || referenceValid(value) ? Promise.resolve() : Promise.reject(new Error(t('filed.referenceInvalid', { max: REFERENCE_MAX })))) },
          ]}
        >
          <Input autoFocus autoComplete="off" data-testid="filed-reference-input" />
        </Form.Item>
        <Form.Item
          name="dds_verification_number"
          label={t('filed.verification')}
          extra={t('filed.verificationHint', { min: VERIFICATION_MIN, max: VERIFICATION_MAX })}
          rules={[
            { required: true, whitespace: true, message: t('filed.verificationRequired') },
            {
              validator: (_r, value?: string) =>
                !compact(value) || verificationValid(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('filed.verificationInvalid', { min: VERIFICATION_MIN, max: VERIFICATION_MAX }))),
            },
          ]}
        >
          <Input autoComplete="off" data-testid="filed-verification-input" />
        </Form.Item>
        <Form.Item
          name="dds_filed_at"
          label={t('filed.filedAt')}
          rules={[
            {
              validator: (_r, value?: Dayjs | null) =>
                value && value.isAfter(dayjs().add(5, 'minute')) ? Promise.reject(new Error(t('filed.filedAtFuture'))) : Promise.resolve(),
            },
          ]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" className={styles.full} disabledDate={(day) => day.isAfter(dayjs(), 'day')} data-testid="filed-at-input" />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Modal>
  );
}
