import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Flex, InputNumber, Popover, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useErrorText } from '@/shared/errors/errorText';
import { useSession } from '@/shared/session/useSession';
import { createPrintJob, printerChoicesQueryOptions, PRINT_JOB_PERMISSION, type LabelTemplateName, type PrinterDevice } from './printApi';

/** The printer this browser last sent labels to, per company (local storage; only an id). */
const lastPrinterKey = (tenant: string | null) => `print-last-printer:${tenant ?? ''}`;

function readLastPrinter(tenant: string | null): number | undefined {
  const stored = Number(window.localStorage.getItem(lastPrinterKey(tenant)));
  return Number.isInteger(stored) && stored > 0 ? stored : undefined;
}

/**
 * The printer to propose: the last one used, if its agent is online; else the first online printer meant
 * for carton labels, else the first online one. None when no printer is online (the panel says so).
 */
export function proposedPrinter(choices: readonly PrinterDevice[], last: number | undefined): number | undefined {
  const online = choices.filter((p) => p.agent_online);
  return (
    online.find((p) => p.id === last)?.id ??
    online.find((p) => p.default_document_type === 'carton_label')?.id ??
    online[0]?.id
  );
}

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
  const { t, i18n } = useTranslation('printing');
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
  const [refusal, setRefusal] = useState<string | null>(null);
  const printers = useQuery({
    ...printerChoicesQueryOptions(tenant),
    enabled: open && mayPrint,
  });
  if (!mayPrint) return null;

  const choices = printers.data?.results ?? [];
  const last = readLastPrinter(tenant);
  const proposed = proposedPrinter(choices, last);
  const chosen = printer ?? proposed;
  const noneOnline = printers.isSuccess && choices.length > 0 && !choices.some((p) => p.agent_online);
  const scopeCount = selected.length > 0 ? selected.length : count;

  const send = async () => {
    if (!chosen) return;
    setSending(true);
    setRefusal(null);
    try {
      const job = await createPrintJob({
        printer: chosen,
        source: 'carton_labels',
        copies,
        ...(template ? { template } : {}),
        ...(selected.length > 0 ? { labels: [...selected] } : { filter }),
      });
      window.localStorage.setItem(lastPrinterKey(tenant), String(chosen));
      setOpen(false);
      const link = (
        <Typography.Link onClick={() => void navigate(isStaff ? `/test/printer?job=${job.id}` : '/printer/devices')}>{t('print.openLog')}</Typography.Link>
      );
      if (job.waits_for_agent) {
        // Queued, but nobody will pick it up until the agent is back: said as a warning that stays a while.
        void message.warning({
          content: (
            <span data-testid="print-waits">
              {t('print.waits', {
                id: job.id,
                printer: job.printer_name,
                until: new Date(job.expires_at).toLocaleTimeString(i18n.language === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit' }),
              })}{' '}
              {link}
            </span>
          ),
          duration: 12,
        });
      } else {
        void message.success({
          content: (
            <span data-testid="print-queued">
              {t('print.queued', { id: job.id, count: job.label_count })} {link}
            </span>
          ),
          duration: 6,
        });
      }
    } catch (error) {
      // Every refusal (a printer switched off or without an agent: 409; too many labels: 400; ...) is
      // said in words in the panel, where the user is looking, and stays until the next try.
      setRefusal(t('print.refused', { reason: errorText(error) }));
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
        onChange={(id: number) => {
          setPrinter(id);
          setRefusal(null);
        }}
        notFoundContent={t('print.noPrinters')}
        options={choices.map((p) => ({ value: p.id, label: `${p.name}${p.agent_online ? '' : ` (${t('agent.offline')})`}` }))}
        data-testid="print-printer"
      />
      {noneOnline ? <Alert type="warning" showIcon title={t('print.noneOnline')} data-testid="print-none-online" /> : null}
      {!noneOnline && chosen !== undefined && chosen === last && printer === undefined ? (
        <Typography.Text type="secondary" data-testid="print-last-used">
          {t('print.lastUsed')}
        </Typography.Text>
      ) : null}
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
      {refusal ? <Alert type="error" showIcon title={refusal} role="alert" data-testid="print-refused" /> : null}
      <Button type="primary" icon={<PrinterOutlined />} loading={sending} disabled={!chosen || scopeCount === 0} onClick={() => void send()} data-testid="print-labels-run">
        {t('print.run')}
      </Button>
    </Flex>
  );

  return (
    <Popover
      content={panel}
      trigger="click"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setRefusal(null);
      }}
      placement="bottomRight"
    >
      <Button icon={<PrinterOutlined />} data-testid="print-labels">
        {t('print.button')}
      </Button>
    </Popover>
  );
}
