import { PlayCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Select, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { fetchJob, fetchPrinters, isSettled, type PrintJob } from '@/shared/printing/printApi';
import { queueStatusCheck, queueTestLabel } from '../api/printing';
import styles from '../components/printing.module.css';
import { usePrinters } from '../hooks/usePrinters';
import { reportedState } from '../lib/format';

type Verdict = { state: 'wait' | 'process' | 'finish' | 'error'; text?: string };
const IDLE: Verdict[] = [{ state: 'wait' }, { state: 'wait' }, { state: 'wait' }];

async function settle(job: PrintJob, timeoutMs = 60000): Promise<PrintJob> {
  const deadline = Date.now() + timeoutMs;
  let current = job;
  while (!isSettled(current.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    current = await fetchJob(current.id);
  }
  return current;
}

/** Staff: the first-run check of a printer: agent reachable, printer answering, a test label printed. */
export default function PrinterTestStartPage() {
  const { t } = useTranslation('printing');
  const errorText = useErrorText();
  const printers = usePrinters();
  const [printer, setPrinter] = useState<number>();
  const [steps, setSteps] = useState<Verdict[]>(IDLE);
  const [running, setRunning] = useState(false);

  const jobVerdict = (job: PrintJob, success: string): Verdict => {
    if (job.status === 'printed') return { state: 'finish', text: success };
    if (job.status === 'expired') return { state: 'error', text: t('start.expired') };
    if (!isSettled(job.status)) return { state: 'error', text: t('start.noResult') };
    const state = reportedState(job.printer_status);
    return { state: 'error', text: `${state ? t(`printerState.${state}`) : ''}${job.error ? ` — ${job.error}` : ''}` };
  };

  const run = async () => {
    if (!printer) return;
    setRunning(true);
    const result: Verdict[] = [{ state: 'process' }, { state: 'wait' }, { state: 'wait' }];
    setSteps([...result]);
    try {
      const chosen = (await fetchPrinters()).results.find((p) => p.id === printer);
      if (!chosen?.agent) {
        result[0] = { state: 'error', text: t('start.noAgent') };
        return;
      }
      if (!chosen.agent_online) {
        result[0] = { state: 'error', text: t('start.agentOffline', { name: chosen.agent_name }) };
        return;
      }
      result[0] = { state: 'finish', text: t('start.agentOnline', { name: chosen.agent_name }) };
      result[1] = { state: 'process' };
      setSteps([...result]);
      const check = await settle(await queueStatusCheck(printer));
      result[1] = jobVerdict(check, t('start.printerReady'));
      if (result[1].state === 'error') return;
      result[2] = { state: 'process' };
      setSteps([...result]);
      const label = await settle(await queueTestLabel(printer));
      result[2] = jobVerdict(label, t('start.labelPrinted'));
    } catch (error) {
      const index = result.findIndex((s) => s.state === 'process');
      result[index >= 0 ? index : 0] = { state: 'error', text: errorText(error) };
    } finally {
      setSteps([...result]);
      setRunning(false);
    }
  };

  const titles = [t('start.step1'), t('start.step2'), t('start.step3')];
  const allGood = steps.every((s) => s.state === 'finish');
  return (
    <PageContainer>
      <Card size="small">
        <Flex vertical gap="middle">
          <Typography.Paragraph>{t('start.intro')}</Typography.Paragraph>
          <Flex gap="small" wrap>
            <Select
              aria-label={t('print.printer')}
              className={styles.filter}
              placeholder={t('start.choosePrinter')}
              loading={printers.isLoading}
              value={printer}
              onChange={(value: number) => {
                setPrinter(value);
                setSteps(IDLE);
              }}
              options={(printers.data?.results ?? []).map((p) => ({ value: p.id, label: p.name }))}
            />
            <Button type="primary" icon={<PlayCircleOutlined />} disabled={!printer} loading={running} onClick={() => void run()} data-testid="start-run">
              {t('start.run')}
            </Button>
          </Flex>
          <Steps
            orientation="vertical"
            items={steps.map((step, index) => ({
              title: titles[index],
              status: step.state,
              content: step.text,
            }))}
          />
          {allGood ? <Alert type="success" showIcon title={t('start.allGood')} /> : null}
        </Flex>
      </Card>
    </PageContainer>
  );
}
