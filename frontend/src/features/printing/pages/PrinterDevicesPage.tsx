import { PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { App, Button, Card, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { useSession } from '@/shared/session/useSession';
import { PRINTERS_URL, PRINTING_PERMS, queueTestLabel, useInvalidatePrinting, type PrinterDevice } from '../api/printing';
import { PrinterFormDrawer } from '../components/PrinterFormDrawer';
import styles from '../components/printing.module.css';
import { RecentJobs } from '../components/RecentJobs';
import { AgentOnlineTag, PrinterStateTag } from '../components/StatusTags';
import { formatDateTime } from '../lib/format';

const FILTER_KEYS = ['last_status', 'is_active'] as const;
const STATES = ['ready', 'paper_out', 'head_open', 'paused', 'ribbon_out', 'no_answer', 'unreachable', 'unknown'] as const;

function useMay(permission: string): boolean {
  return useSession((s) => {
    const list = s.userInfo?.permissions;
    return list === undefined || list.includes(permission);
  });
}

type Editing = { printer?: PrinterDevice } | null;

/** Printers with their status, agent and last seen; add and edit; print a test label; the print log. */
export default function PrinterDevicesPage() {
  const { t, i18n } = useTranslation('printing');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidatePrinting();
  const mayAdd = useMay(PRINTING_PERMS.addPrinter);
  const mayChange = useMay(PRINTING_PERMS.changePrinter);
  const mayPrint = useMay(PRINTING_PERMS.print);
  const [editing, setEditing] = useState<Editing>(null);

  const testLabel = async (printer: PrinterDevice) => {
    try {
      const job = await queueTestLabel(printer.id);
      void message.success(t('devices.testQueued', { id: job.id }));
      void invalidate();
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const columns: ServerColumn<PrinterDevice>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      sorter: true,
      render: (_: unknown, p) => (
        <>
          <Typography.Text strong>{p.name}</Typography.Text>
          <Typography.Text type="secondary" className={styles.secondLine}>
            {[p.site, p.warehouse_name, p.parent_vendor_name].filter(Boolean).join(' · ') || '—'}
          </Typography.Text>
        </>
      ),
    },
    { title: t('fields.status'), dataIndex: 'last_status', key: 'last_status', sorter: true, render: (v: string) => <PrinterStateTag state={v} /> },
    {
      title: t('fields.agent'),
      key: 'agent',
      render: (_: unknown, p) => (p.agent ? <>{p.agent_name} <AgentOnlineTag online={p.agent_online} /></> : <Typography.Text type="warning">{t('devices.noAgent')}</Typography.Text>),
    },
    { title: t('fields.address'), key: 'address', responsive: ['md'], render: (_: unknown, p) => <Typography.Text code>{`${p.host}:${p.port}`}</Typography.Text> },
    {
      title: t('fields.label'),
      key: 'label',
      responsive: ['lg'],
      render: (_: unknown, p) => `${Number(p.label_width_mm)} × ${Number(p.label_height_mm)} mm · ${p.dpi} dpi · ${t(`templates.${p.template}`)}`,
    },
    { title: t('fields.lastSeen'), dataIndex: 'last_seen_at', key: 'last_seen_at', sorter: true, responsive: ['md'], render: (v: string | null) => formatDateTime(v, i18n.language) },
    {
      title: t('jobs.actions'),
      key: 'actions',
      render: (_: unknown, p) =>
        mayPrint ? (
          <Button
            size="small"
            icon={<PrinterOutlined />}
            disabled={!p.agent || !p.is_active}
            onClick={(event) => {
              event.stopPropagation();
              void testLabel(p);
            }}
            data-testid={`test-label-${p.id}`}
          >
            {t('devices.testLabel')}
          </Button>
        ) : null,
    },
  ];

  return (
    <PageContainer>
      <Card>
        <ServerTable<PrinterDevice>
          endpoint={PRINTERS_URL}
          rowKey="id"
          columns={columns}
          listOptions={{ filterKeys: FILTER_KEYS, defaultOrdering: 'name' }}
          searchPlaceholder={t('devices.searchPlaceholder')}
          onRowClick={mayChange ? (printer) => setEditing({ printer }) : undefined}
          exportFileName="printers"
          filters={(list) => (
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('devices.allStates')}
              aria-label={t('fields.status')}
              value={typeof list.filters.last_status === 'string' ? list.filters.last_status : undefined}
              onChange={(value: string | undefined) => list.setFilter('last_status', value ?? null)}
              options={STATES.map((s) => ({ value: s, label: t(`printerState.${s}`) }))}
            />
          )}
          actions={
            mayAdd ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="printer-add">
                {t('devices.add')}
              </Button>
            ) : null
          }
        />
      </Card>
      <div className={styles.section}>
        <RecentJobs />
      </div>
      {editing ? <PrinterFormDrawer printer={editing.printer} onClose={() => setEditing(null)} /> : null}
    </PageContainer>
  );
}
