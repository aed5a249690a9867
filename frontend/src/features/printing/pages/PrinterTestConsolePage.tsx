import { SendOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useErrorText } from '@/shared/errors/errorText';
import { createPrintJob, type PrintJob } from '@/shared/printing/printApi';
import { queueStatusCheck, useInvalidatePrinting } from '../api/printing';
import { JobResult } from '../components/JobResult';
import styles from '../components/printing.module.css';
import { RecentJobs } from '../components/RecentJobs';
import { useJob } from '../hooks/useJob';
import { usePrinters } from '../hooks/usePrinters';

const SAMPLE = '^XA\n^CI28\n^FO40,40^A0N,40,40^FDCartonTrace^FS\n^FO40,100^BQN,2,5^FDMA,https://example.com^FS\n^XZ';

interface Values {
  printer: number;
  zpl: string;
  copies: number;
}

/** Staff: send raw ZPL to a printer, ask its status (~HS decoded in words) and read the job log. */
export default function PrinterTestConsolePage() {
  const { t } = useTranslation('printing');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidatePrinting();
  const printers = usePrinters();
  const [params, setParams] = useSearchParams();
  const [checking, setChecking] = useState(false);
  const jobId = Number(params.get('job')) || undefined;
  const job = useJob(jobId);
  const watch = (created: PrintJob) => {
    const next = new URLSearchParams(params);
    next.set('job', String(created.id));
    setParams(next, { replace: true });
    void invalidate();
  };
  const { form, onFinish, submitting, formError } = useApiForm<Values, PrintJob>({
    submit: (values) => createPrintJob({ printer: values.printer, source: 'raw_zpl', zpl: values.zpl, copies: values.copies }),
    onSuccess: (created) => {
      void message.success(t('console.sent', { id: created.id }));
      watch(created);
    },
  });

  const statusCheck = async () => {
    const printer = form.getFieldValue('printer') as number | undefined;
    if (!printer) {
      void form.validateFields(['printer']);
      return;
    }
    setChecking(true);
    try {
      watch(await queueStatusCheck(printer));
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <PageContainer>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('console.title')}>
            <Form<Values> form={form} layout="vertical" onFinish={onFinish} initialValues={{ zpl: SAMPLE, copies: 1 }}>
              <Form.Item name="printer" label={t('print.printer')} rules={[{ required: true, message: t('validation.required') }]}>
                <Select
                  loading={printers.isLoading}
                  options={(printers.data?.results ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.host}:${p.port})` }))}
                  data-testid="console-printer"
                />
              </Form.Item>
              <Form.Item
                name="zpl"
                label={t('console.zpl')}
                rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 100000, message: t('validation.max', { max: 100000 }) }]}
              >
                <Input.TextArea rows={10} spellCheck={false} className={styles.consoleInput} data-testid="console-zpl" />
              </Form.Item>
              <Form.Item name="copies" label={t('print.copies')}>
                <InputNumber min={1} max={100} precision={0} />
              </Form.Item>
              {formError ? <Form.Item validateStatus="error" help={formError} /> : null}
              <Flex gap="small" wrap>
                <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={submitting} data-testid="console-send">
                  {t('console.send')}
                </Button>
                <Button icon={<ThunderboltOutlined />} loading={checking} onClick={() => void statusCheck()} data-testid="console-status">
                  {t('console.status')}
                </Button>
              </Flex>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('console.result')}>
            {job.data ? <JobResult job={job.data} /> : <span>{t('console.noJob')}</span>}
          </Card>
        </Col>
      </Row>
      <div className={styles.section}>
        <RecentJobs />
      </div>
    </PageContainer>
  );
}
