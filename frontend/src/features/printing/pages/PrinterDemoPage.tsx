import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Collapse, Empty, Flex, Radio, Row, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { createPrintJob } from '@/shared/printing/printApi';
import { useSession } from '@/shared/session/useSession';
import { demoCartonsQueryOptions, previewQueryOptions } from '../api/printing';
import { JobResult } from '../components/JobResult';
import { LabelPreview } from '../components/LabelPreview';
import styles from '../components/printing.module.css';
import { useJob } from '../hooks/useJob';
import { usePrinters } from '../hooks/usePrinters';


/**
 * A virtual printer: pick a carton and a template (and a printer for its resolution and label size),
 * see the label laid out from the same data as the ZPL, and print it.
 */
export default function PrinterDemoPage() {
  const { t } = useTranslation('printing');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const tenant = useSession((s) => s.tenantId);
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [jobId, setJobId] = useState<number>();
  const [sending, setSending] = useState(false);
  const label = Number(params.get('label')) || undefined;
  const template = params.get('template') === 'compact' ? 'compact' : 'default';
  const printer = Number(params.get('printer')) || undefined;
  const update = (key: string, value: string | number | undefined) => {
    const next = new URLSearchParams(params);
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
    setParams(next, { replace: true });
  };

  const printers = usePrinters();
  const cartons = useQuery(demoCartonsQueryOptions(tenant, search));
  const chosenLabel = label ?? cartons.data?.results[0]?.id;
  const preview = useQuery({ ...previewQueryOptions(tenant, chosenLabel, template, printer), enabled: chosenLabel !== undefined });
  const job = useJob(jobId);

  const print = async () => {
    const target = printer ?? printers.data?.results[0]?.id;
    if (!target || !chosenLabel) return;
    setSending(true);
    try {
      const created = await createPrintJob({ printer: target, source: 'carton_labels', labels: [chosenLabel], template, copies: 1 });
      setJobId(created.id);
      void message.success(t('print.queued', { id: created.id, count: created.label_count }));
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <PageContainer>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={9}>
          <Card size="small" title={t('demo.settings')}>
            <Flex vertical gap="middle">
              <div>
                <Typography.Text strong id="demo-carton">
                  {t('demo.carton')}
                </Typography.Text>
                <Select
                  showSearch={{ filterOption: false, onSearch: setSearch }}
                  aria-labelledby="demo-carton"
                  className={styles.fullWidth}
                  value={chosenLabel}
                  loading={cartons.isFetching}
                  onChange={(value: number) => update('label', value)}
                  notFoundContent={t('demo.noCartons')}
                  options={(cartons.data?.results ?? []).map((c) => ({
                    value: c.id,
                    label: `${c.code} · ${c.article_number} · ${c.production_batch_code} #${c.batch_sequence}`,
                  }))}
                  data-testid="demo-carton"
                />
              </div>
              <div>
                <Typography.Text strong>{t('print.template')}</Typography.Text>
                <div>
                  <Radio.Group value={template} onChange={(e) => update('template', e.target.value as string)} optionType="button">
                    <Radio.Button value="default">{t('templates.default')}</Radio.Button>
                    <Radio.Button value="compact">{t('templates.compact')}</Radio.Button>
                  </Radio.Group>
                </div>
              </div>
              <div>
                <Typography.Text strong id="demo-printer">
                  {t('print.printer')}
                </Typography.Text>
                <Select
                  allowClear
                  aria-labelledby="demo-printer"
                  className={styles.fullWidth}
                  placeholder={t('demo.standardSize')}
                  value={printer}
                  onChange={(value: number | undefined) => update('printer', value)}
                  options={(printers.data?.results ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.dpi} dpi · ${Number(p.label_width_mm)}×${Number(p.label_height_mm)} mm` }))}
                />
              </div>
              <Button
                type="primary"
                icon={<PrinterOutlined />}
                loading={sending}
                disabled={!chosenLabel || (printers.data?.results.length ?? 0) === 0}
                onClick={() => void print()}
                data-testid="demo-print"
              >
                {t('demo.print')}
              </Button>
              {(printers.data?.results.length ?? 1) === 0 ? <Alert type="info" showIcon title={t('demo.noPrinters')} /> : null}
              {job.data ? <JobResult job={job.data} /> : null}
            </Flex>
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card size="small" title={t('demo.preview')}>
            {chosenLabel === undefined && !cartons.isLoading ? (
              <Empty description={t('demo.noCartons')} />
            ) : preview.isError ? (
              <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
            ) : !preview.data ? (
              <Skeleton active />
            ) : (
              <Flex vertical gap="small">
                <LabelPreview preview={preview.data} />
                <Typography.Text type="secondary">
                  {t('demo.size', { width: Number(preview.data.label_width_mm), height: Number(preview.data.label_height_mm), dpi: preview.data.dpi })}
                </Typography.Text>
                <Collapse
                  size="small"
                  items={[
                    {
                      key: 'zpl',
                      label: t('demo.zpl'),
                      children: <pre className={styles.zpl}>{preview.data.zpl}</pre>,
                    },
                  ]}
                />
              </Flex>
            )}
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
