import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Flex, InputNumber, Popover, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useErrorText } from '@/shared/errors/errorText';
import { useSession } from '@/shared/session/useSession';
import { createPrintJob, fetchPrinters, PRINT_JOB_PERMISSION, PRINTERS_URL, type LabelTemplateName } from './printApi';

interface Props {
  /** Selected label ids; when empty, the labels matching `filter` are printed. */
  selected: readonly number[];
  /** The labels table's current filters (as sent to /api/eudr/cartons/). */
  filter: Record<string, string | number>;
  /** How many labels the filter matches (shown, and 0 disables printing the filter). */
  count: number;
}

/**
 * "Print" next to PDF and CSV: sends the selection (or the filter) to a chosen label printer as one
 * print job and links to the job log, where its status turns `printed` once the agent reports.
 */
export function PrintLabelsButton({ selected, filter, count }: Props) {
  const { t } = useTranslation('printing');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const tenant = useSession((s) => s.tenantId);
  const mayPrint = useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes(PRINT_JOB_PERMISSION);
  });
  const isStaff = useSession((s) => Boolean(s.userInfo?.is_staff));
  const [open, setOpen] = useState(false);
  const [printer, setPrinter] = useState<number | undefined>();
  const [template, setTemplate] = useState<LabelTemplateName | undefined>();
  const [copies, setCopies] = useState(1);
  const [sending, setSending] = useState(false);
  const printers = useQuery({
    queryKey: [PRINTERS_URL, 'choices', tenant],
    queryFn: ({ signal }) => fetchPrinters(signal),
    enabled: open && mayPrint,
  });
  if (!mayPrint) return null;

  const choices = printers.data?.results ?? [];
  const chosen = printer ?? choices.find((p) => p.default_document_type === 'carton_label')?.id ?? choices[0]?.id;
  const scopeCount = selected.length > 0 ? selected.length : count;

  const send = async () => {
    if (!chosen) return;
    setSending(true);
    try {
      const job = await createPrintJob({
        printer: chosen,
        source: 'carton_labels',
        copies,
        ...(template ? { template } : {}),
        ...(selected.length > 0 ? { labels: [...selected] } : { filter }),
      });
      setOpen(false);
      void message.success({
        content: (
          <span data-testid="print-queued">
            {t('print.queued', { id: job.id, count: job.label_count })}{' '}
            <Typography.Link onClick={() => void navigate(isStaff ? `/test/printer?job=${job.id}` : '/printer/devices')}>{t('print.openLog')}</Typography.Link>
          </span>
        ),
        duration: 6,
      });
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setSending(false);
    }
  };

  const panel = (
    <Flex vertical gap="small" data-testid="print-panel" style={{ minWidth: 260 }}>
      <Typography.Text strong id="print-printer-label">
        {t('print.printer')}
      </Typography.Text>
      <Select
        aria-labelledby="print-printer-label"
        loading={printers.isLoading}
        value={chosen}
        onChange={setPrinter}
        notFoundContent={t('print.noPrinters')}
        options={choices.map((p) => ({ value: p.id, label: `${p.name}${p.agent_online ? '' : ` (${t('agent.offline')})`}` }))}
        data-testid="print-printer"
      />
      <Typography.Text strong>{t('print.template')}</Typography.Text>
      <Radio.Group value={template ?? ''} onChange={(e) => setTemplate((e.target.value || undefined) as LabelTemplateName | undefined)} optionType="button">
        <Radio.Button value="">{t('print.printerTemplate')}</Radio.Button>
        <Radio.Button value="default">{t('templates.default')}</Radio.Button>
        <Radio.Button value="compact">{t('templates.compact')}</Radio.Button>
      </Radio.Group>
      <label htmlFor="print-copies">
        <Typography.Text strong>{t('print.copies')}</Typography.Text>
      </label>
      <InputNumber id="print-copies" min={1} max={100} precision={0} value={copies} onChange={(v) => setCopies(v ?? 1)} />
      <Typography.Text type="secondary">
        {selected.length > 0 ? t('print.scopeSelected', { count: scopeCount }) : t('print.scopeFilter', { count: scopeCount })}
      </Typography.Text>
      <Button type="primary" icon={<PrinterOutlined />} loading={sending} disabled={!chosen || scopeCount === 0} onClick={() => void send()} data-testid="print-labels-run">
        {t('print.run')}
      </Button>
    </Flex>
  );

  return (
    <Popover content={panel} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
      <Button icon={<PrinterOutlined />} data-testid="print-labels">
        {t('print.button')}
      </Button>
    </Popover>
  );
}
