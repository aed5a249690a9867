import { Alert, App, Button, Col, Drawer, Flex, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { useConfirmDiscard, useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useSession } from '@/shared/session/useSession';
import { agentsQueryOptions, savePrinter, useInvalidatePrinting, type PrinterDevice, type PrinterInput } from '../api/printing';
import styles from './printing.module.css';

interface Props {
  printer?: PrinterDevice;
  onClose: () => void;
}

type FormValues = Omit<PrinterInput, 'label_width_mm' | 'label_height_mm'> & { label_width_mm: number; label_height_mm: number };

function toFormValues(printer?: PrinterDevice): Partial<FormValues> {
  if (!printer) {
    return { port: 9100, dpi: 203, label_width_mm: 100, label_height_mm: 150, template: 'default', is_active: true, default_document_type: '' };
  }
  return {
    name: printer.name,
    site: printer.site,
    agent: printer.agent,
    host: printer.host,
    port: printer.port,
    dpi: printer.dpi,
    label_width_mm: Number(printer.label_width_mm),
    label_height_mm: Number(printer.label_height_mm),
    template: printer.template,
    is_location_default: printer.is_location_default,
    default_document_type: printer.default_document_type,
    is_active: printer.is_active,
  };
}

/** Add or edit a printer: name, site, the agent that reaches it, host and port, resolution, label size. */
export function PrinterFormDrawer({ printer, onClose }: Props) {
  const { t } = useTranslation('printing');
  const { message } = App.useApp();
  const narrow = useMediaQuery('(max-width: 760px)');
  const invalidate = useInvalidatePrinting();
  const tenant = useSession((s) => s.tenantId);
  const [dirty, setDirty] = useState(false);
  const confirmDiscard = useConfirmDiscard();
  useUnsavedChangesGuard(dirty);
  const agents = useQuery(agentsQueryOptions(tenant, 'choices'));

  const { form, onFinish, submitting, formError } = useApiForm<FormValues, PrinterDevice>({
    submit: (values) =>
      savePrinter(printer?.id, {
        ...values,
        label_width_mm: String(values.label_width_mm),
        label_height_mm: String(values.label_height_mm),
      }),
    onSuccess: () => {
      setDirty(false);
      void message.success(t('devices.saved'));
      void invalidate();
      onClose();
    },
  });

  const close = () =>
    confirmDiscard(dirty, () => {
      setDirty(false);
      onClose();
    });

  const required = { required: true, whitespace: true, message: t('validation.required') };

  return (
    <Drawer
      open
      onClose={close}
      title={printer ? t('devices.editTitle', { name: printer.name }) : t('devices.createTitle')}
      size={narrow ? '100%' : 560}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <Flex justify="end" gap="small">
          <Button onClick={close}>{t('actions.cancel')}</Button>
          <Button type="primary" loading={submitting} onClick={() => form.submit()} data-testid="printer-save">
            {t('actions.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={toFormValues(printer)}
        onFinish={onFinish}
        onValuesChange={() => setDirty(true)}
        scrollToFirstError
        data-testid="printer-form"
      >
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('fields.name')} rules={[required, { max: 100, message: t('validation.max', { max: 100 }) }]}>
              <Input data-testid="printer-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="site" label={t('fields.site')} rules={[{ max: 100, message: t('validation.max', { max: 100 }) }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="agent" label={t('fields.agent')} extra={t('devices.agentHelp')}>
              <Select
                allowClear
                data-testid="printer-agent"
                loading={agents.isLoading}
                options={(agents.data?.results ?? []).filter((a) => a.is_active).map((a) => ({ value: a.id, label: `${a.name}${a.hostname ? ` (${a.hostname})` : ''}` }))}
              />
            </Form.Item>
          </Col>
          <Col xs={16}>
            <Form.Item name="host" label={t('fields.host')} rules={[required, { max: 253, message: t('validation.max', { max: 253 }) }]} extra={t('devices.hostHelp')}>
              <Input autoComplete="off" data-testid="printer-host" />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="port" label={t('fields.port')} rules={[{ required: true, message: t('validation.required') }]}>
              <InputNumber min={1} max={65535} precision={0} className={styles.fullWidth} data-testid="printer-port" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="dpi" label={t('fields.dpi')}>
              <Select options={[203, 300, 600].map((v) => ({ value: v, label: `${v} dpi` }))} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item name="label_width_mm" label={t('fields.labelWidth')} rules={[{ required: true, message: t('validation.required') }]}>
              <InputNumber min={20} max={220} step={1} className={styles.fullWidth} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item name="label_height_mm" label={t('fields.labelHeight')} rules={[{ required: true, message: t('validation.required') }]}>
              <InputNumber min={20} max={400} step={1} className={styles.fullWidth} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="template" label={t('fields.template')}>
              <Select options={(['default', 'compact'] as const).map((v) => ({ value: v, label: t(`templates.${v}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="default_document_type" label={t('fields.defaultDocument')}>
              <Select
                options={[
                  { value: '', label: t('devices.noDefault') },
                  { value: 'carton_label', label: t('devices.documents.carton_label') },
                  { value: 'test_label', label: t('devices.documents.test_label') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item name="is_location_default" label={t('fields.locationDefault')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item name="is_active" label={t('fields.active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        {formError ? <Alert type="error" showIcon title={formError} /> : null}
      </Form>
    </Drawer>
  );
}
