import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Form, Input, Modal, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { CRITERIA, MITIGATION_KINDS, useAssess } from '../../api/dueDiligence';
import styles from '../eudr.module.css';

interface Measure {
  kind?: string;
  description?: string;
  evidence?: string;
}

interface Values {
  criteria: { finding: 'no_risk' | 'risk'; evidence: string }[];
  conclusion: 'negligible' | 'not_negligible';
  mitigation?: Measure[];
  summary?: string;
}

interface Props {
  deliveryId: number;
  open: boolean;
  onClose: () => void;
}

/** The Art. 10(2) checklist with evidence, the conclusion and the Art. 11 mitigation measures. */
export function AssessmentDialog({ deliveryId, open, onClose }: Props) {
  const { t } = useTranslation('dueDiligence');
  const { message } = App.useApp();
  const assess = useAssess(deliveryId);
  const { form, onFinish, submitting, formError, clearFormError } = useApiForm<Values>({
    submit: (values) =>
      assess.mutateAsync({
        criteria: CRITERIA.map((code, index) => ({ code, finding: values.criteria[index]?.finding, evidence: values.criteria[index]?.evidence ?? '' })),
        conclusion: values.conclusion,
        mitigation: (values.mitigation ?? []).map((m) => ({ kind: m.kind ?? '', description: m.description ?? '', evidence: m.evidence ?? '' })),
        summary: values.summary ?? '',
      }),
    onSuccess: () => {
      void message.success(t('assessment.saved'));
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
      title={t('assessment.dialogTitle')}
      okText={t('assessment.save')}
      okButtonProps={{ 'data-testid': 'assessment-save' }}
      cancelText={t('common:actions.cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={close}
      width={760}
      destroyOnHidden
    >
      <Alert type="info" showIcon className={styles.section} title={t('assessment.help')} />
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) => void onFinish(values)}
        initialValues={{ criteria: CRITERIA.map(() => ({ finding: 'no_risk', evidence: '' })), conclusion: 'negligible', mitigation: [] }}
      >
        {CRITERIA.map((code, index) => (
          <fieldset key={code} className={styles.criterion} data-testid={`criterion-${code}`}>
            <legend>
              <Typography.Text strong>{t(`assessment.criteria.${code}`)}</Typography.Text>
            </legend>
            <Form.Item name={['criteria', index, 'finding']} noStyle>
              <Radio.Group
                optionType="button"
                size="small"
                aria-label={t(`assessment.criteria.${code}`)}
                options={[
                  { value: 'no_risk', label: t('assessment.noRisk') },
                  { value: 'risk', label: t('assessment.risk') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name={['criteria', index, 'evidence']}
              label={t('assessment.evidence')}
              rules={[{ required: true, whitespace: true, message: t('assessment.evidenceRequired') }]}
            >
              <Input.TextArea rows={1} autoSize={{ minRows: 1, maxRows: 4 }} maxLength={2000} data-testid={`evidence-${code}`} />
            </Form.Item>
          </fieldset>
        ))}
        <Typography.Title level={5}>{t('assessment.mitigation')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('assessment.mitigationHelp')}</Typography.Paragraph>
        <Form.List name="mitigation">
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field) => (
                <Flex key={field.key} gap="small" wrap align="start" data-testid="measure">
                  <Form.Item name={[field.name, 'kind']} label={t('assessment.kind')} rules={[{ required: true, message: t('reasonRequired') }]}>
                    <Select
                      className={styles.measureKind}
                      data-testid="measure-kind"
                      options={MITIGATION_KINDS.map((kind) => ({ value: kind, label: t(`assessment.kinds.${kind}`) }))}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'description']} label={t('assessment.description')} rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}>
                    <Input maxLength={2000} data-testid="measure-description" />
                  </Form.Item>
                  <Form.Item name={[field.name, 'evidence']} label={t('assessment.measureEvidence')} rules={[{ required: true, whitespace: true, message: t('assessment.evidenceRequired') }]}>
                    <Input maxLength={2000} data-testid="measure-evidence" />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('assessment.removeMeasure')} onClick={() => remove(field.name)} />
                </Flex>
              ))}
              <div data-testid="mitigation-errors">
                <Form.ErrorList errors={errors} />
              </div>
              <Button icon={<PlusOutlined />} onClick={() => add({})} className={styles.section} data-testid="add-measure">
                {t('assessment.addMeasure')}
              </Button>
            </>
          )}
        </Form.List>
        <Form.Item name="conclusion" label={t('assessment.conclusion')}>
          <Radio.Group
            data-testid="conclusion"
            options={[
              { value: 'negligible', label: t('conclusion.negligible') },
              { value: 'not_negligible', label: t('conclusion.not_negligible') },
            ]}
          />
        </Form.Item>
        <Form.Item name="summary" label={t('assessment.summary')}>
          <Input.TextArea rows={2} maxLength={4000} />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} data-testid="assessment-error" /> : null}
      </Form>
    </Modal>
  );
}
