import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useFormatters } from '@/shared/utils/format';
import { type EmailScenario, SCENARIOS_URL, useEvents } from '../api/notifications';
import { ScenarioDrawer } from './ScenarioDrawer';

const FILTER_KEYS = ['event', 'enabled'] as const;

/** The scenarios: which event mails whom with which template. */
export function ScenariosTab() {
  const { t } = useTranslation('email');
  const f = useFormatters();
  const events = useEvents();
  const [open, setOpen] = useState<EmailScenario | 'new' | null>(null);
  const columns: ServerColumn<EmailScenario>[] = [
    { title: t('fields.name'), dataIndex: 'name', sorter: true, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
    { title: t('fields.event'), dataIndex: 'event_label', key: 'event', sorter: true },
    { title: t('fields.template'), dataIndex: 'template_name' },
    {
      title: t('fields.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      sorter: true,
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? t('scenarios.on') : t('scenarios.off')}</Tag>,
    },
    { title: t('fields.updated'), dataIndex: 'updated_at', key: 'updated_at', sorter: true, render: (v: string) => f.dateTime(v) },
  ];
  return (
    <>
      <ServerTable<EmailScenario>
        endpoint={SCENARIOS_URL}
        rowKey="id"
        columns={columns}
        exportable={false}
        listOptions={{ defaultOrdering: 'name', filterKeys: FILTER_KEYS }}
        onRowClick={(row) => setOpen(row)}
        filters={(list) => (
          <>
            <Select
              aria-label={t('fields.event')}
              placeholder={t('fields.event')}
              allowClear
              style={{ minWidth: 220 }}
              value={typeof list.filters.event === 'string' ? list.filters.event : undefined}
              onChange={(value: string | undefined) => list.setFilter('event', value)}
              options={(events.data ?? []).map((e) => ({ value: e.name, label: e.label }))}
            />
            <Select
              aria-label={t('fields.enabled')}
              placeholder={t('fields.enabled')}
              allowClear
              style={{ minWidth: 140 }}
              value={typeof list.filters.enabled === 'string' ? list.filters.enabled : undefined}
              onChange={(value: string | undefined) => list.setFilter('enabled', value)}
              options={[
                { value: 'true', label: t('scenarios.on') },
                { value: 'false', label: t('scenarios.off') },
              ]}
            />
          </>
        )}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen('new')} data-testid="scenario-new">
            {t('scenarios.new')}
          </Button>
        }
      />
      {open ? <ScenarioDrawer scenario={open === 'new' ? undefined : open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
