import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useFormatters } from '@/shared/utils/format';
import { type EmailTemplate, TEMPLATES_URL, useEvents } from '../api/notifications';
import { TemplateDrawer } from './TemplateDrawer';

const FILTER_KEYS = ['event'] as const;

/** The templates: subject and bodies in two languages, per event. */
export function TemplatesTab() {
  const { t } = useTranslation('email');
  const f = useFormatters();
  const events = useEvents();
  const [open, setOpen] = useState<EmailTemplate | 'new' | null>(null);
  const columns: ServerColumn<EmailTemplate>[] = [
    { title: t('fields.name'), dataIndex: 'name', sorter: true, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
    { title: t('fields.event'), dataIndex: 'event_label', key: 'event', sorter: true },
    { title: t('fields.subject'), dataIndex: 'subject_en', render: (v: string, row) => v || row.subject_zh },
    { title: t('templates.usedBy'), dataIndex: 'scenario_count', align: 'right' },
    { title: t('fields.updated'), dataIndex: 'updated_at', key: 'updated_at', sorter: true, render: (v: string) => f.dateTime(v) },
  ];
  return (
    <>
      <ServerTable<EmailTemplate>
        endpoint={TEMPLATES_URL}
        rowKey="id"
        columns={columns}
        exportable={false}
        listOptions={{ defaultOrdering: 'name', filterKeys: FILTER_KEYS }}
        onRowClick={(row) => setOpen(row)}
        filters={(list) => (
          <Select
            aria-label={t('fields.event')}
            placeholder={t('fields.event')}
            allowClear
            style={{ minWidth: 220 }}
            value={typeof list.filters.event === 'string' ? list.filters.event : undefined}
            onChange={(value: string | undefined) => list.setFilter('event', value)}
            options={(events.data ?? []).map((e) => ({ value: e.name, label: e.label }))}
          />
        )}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen('new')} data-testid="template-new">
            {t('templates.new')}
          </Button>
        }
      />
      {open ? <TemplateDrawer template={open === 'new' ? undefined : open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
