import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { PageContainer } from '@/shared/components/PageContainer';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import {
  ACCOUNTING_PERMS,
  MAPPINGS_URL,
  RECORD_KINDS,
  createMapping,
  deleteMapping,
  saveMapping,
  type Mapping,
  type RecordKind,
  useInvalidateAccounting,
  useMay,
} from '../api/accounting';
import { AccountingNav } from '../components/AccountingNav';
import { formatDateTime } from '@/shared/utils/format';

const FILTER_KEYS = ['kind'] as const;

type Editing = { mapping?: Mapping } | null;

function MappingModal({ editing, onClose }: { editing: NonNullable<Editing>; onClose: () => void }) {
  const { t } = useTranslation('accounting');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const invalidate = useInvalidateAccounting();
  const [form] = Form.useForm<{ kind: RecordKind; local_key: string; external_id: string }>();
  const [saving, setSaving] = useState(false);
  const mapping = editing.mapping;
  const submit = async (values: { kind: RecordKind; local_key: string; external_id: string }) => {
    setSaving(true);
    try {
      if (mapping) await saveMapping(mapping.id, values.external_id);
      else await createMapping(values);
      void message.success(t('mappings.saved'));
      await invalidate();
      onClose();
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={mapping ? t('mappings.edit') : t('mappings.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: saving, ...({ 'data-testid': 'mapping-save' } as Record<`data-${string}`, string>) }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={mapping ?? { kind: 'vat_code' }} onFinish={(v) => void submit(v)}>
        <Form.Item name="kind" label={t('fields.kind')}>
          <Select
            disabled={Boolean(mapping)}
            options={(mapping ? RECORD_KINDS : (['vat_code', 'payment_term'] as RecordKind[])).map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          />
        </Form.Item>
        {mapping ? (
          <Typography.Paragraph>
            {t('fields.record')}: <Typography.Text strong>{mapping.local_label || mapping.local_key}</Typography.Text>
          </Typography.Paragraph>
        ) : (
          <Form.Item name="local_key" label={t('mappings.localKey')} extra={t('mappings.localKeyHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={64} />
          </Form.Item>
        )}
        <Form.Item name="external_id" label={t('fields.externalId')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input maxLength={100} data-testid="mapping-external-id" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Local records and their ids in the accounting system; VAT codes and payment terms are mapped by hand. */
export default function AccountingMappingsPage() {
  const { t, i18n } = useTranslation('accounting');
  const mayManage = useMay(ACCOUNTING_PERMS.manage);
  const invalidate = useInvalidateAccounting();
  const [editing, setEditing] = useState<Editing>(null);
  const columns: ServerColumn<Mapping>[] = [
    { title: t('fields.kind'), dataIndex: 'kind', key: 'kind', sorter: true, render: (v: string) => t(`kind.${v}`) },
    { title: t('fields.record'), dataIndex: 'local_label', key: 'local_label', sorter: true, render: (v: string, m) => v || m.local_key },
    { title: t('fields.externalId'), dataIndex: 'external_id', key: 'external_id', sorter: true, render: (v: string) => (v ? <Typography.Text code>{v}</Typography.Text> : '—') },
    {
      title: t('fields.externalStatus'),
      key: 'external_status',
      responsive: ['md'],
      render: (_: unknown, m) => (m.external_status ? t(`paymentStatus.${m.external_status}`, { defaultValue: m.external_status }) : '—'),
    },
    {
      title: t('fields.pushedAt'),
      dataIndex: 'pushed_at',
      key: 'pushed_at',
      sorter: true,
      responsive: ['lg'],
      render: (v: string | null) => (v ? formatDateTime(v, i18n.language) : '—'),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      render: (_: unknown, m) =>
        mayManage ? (
          <Flex gap="small">
            <Button size="small" icon={<EditOutlined />} aria-label={t('mappings.edit')} onClick={() => setEditing({ mapping: m })} data-testid={`mapping-edit-${m.id}`} />
            <ConfirmDelete itemLabel={m.local_label || m.local_key} onConfirm={async () => { await deleteMapping(m.id); await invalidate(); }}>
              <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('mappings.delete')} data-testid={`mapping-delete-${m.id}`} />
            </ConfirmDelete>
          </Flex>
        ) : null,
    },
  ];
  return (
    <PageContainer>
      <AccountingNav />
      <Card title={t('mappings.title')}>
        <ServerTable<Mapping>
          endpoint={MAPPINGS_URL}
          rowKey="id"
          columns={columns}
          exportable={false}
          listOptions={{ filterKeys: FILTER_KEYS, defaultOrdering: 'kind' }}
          searchPlaceholder={t('mappings.search')}
          filters={(list) => (
            <Select
              allowClear
              style={{ minWidth: 180 }}
              placeholder={t('mappings.allKinds')}
              aria-label={t('fields.kind')}
              value={typeof list.filters.kind === 'string' ? list.filters.kind : undefined}
              onChange={(value: string | undefined) => list.setFilter('kind', value ?? null)}
              options={RECORD_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            />
          )}
          actions={
            mayManage ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="mapping-add">
                {t('mappings.add')}
              </Button>
            ) : null
          }
        />
      </Card>
      {editing ? <MappingModal editing={editing} onClose={() => setEditing(null)} /> : null}
    </PageContainer>
  );
}
