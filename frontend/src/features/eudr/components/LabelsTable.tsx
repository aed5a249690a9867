import { DeleteOutlined, DownloadOutlined, LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Flex, Input, Popover, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { selectionTitle } from '@/shared/components/SelectionTitle';
import { PrintLabelsButton } from '@/shared/printing/PrintLabelsButton';
import { useSession } from '@/shared/session/useSession';
import { cartonLabelsQueryOptions, exportLabels, useBulkDeleteCartons, type LabelExportFormat, type LabelTemplate } from '../api/rawMaterials';
import type { CartonLabel, ProductionBatch } from '../api/types';
import { LABEL_FORMATS, LABEL_TEMPLATES } from '../lib/options';
import { formatKg } from '../lib/weight';
import styles from './eudr.module.css';
import { StatusTag } from './StatusTag';
import { formatDateTime } from '@/shared/utils/format';

interface Props {
  rawMaterialId: number;
  batches: readonly ProductionBatch[];
  /** A batch code chosen elsewhere (the batches table) filters the labels. */
  batchCode: string | undefined;
  onBatchCodeChange: (code: string | undefined) => void;
  canDelete: boolean;
}

type LabelStatusFilter = 'active' | 'voided' | 'all';

/** A label may be deleted (voided) only while its carton has not reached the warehouse. */
const VOIDABLE = new Set(['labelled', 'in_container']);
const canVoid = (row: CartonLabel) => row.status === 'active' && VOIDABLE.has(row.life);

/**
 * The delivery's carton labels: server paging, filter by batch and status, row selection, delete of
 * the selection (its weight goes back to the delivery) and export as PDF (templates default and
 * compact) or CSV of the current filters.
 */
export function LabelsTable({ rawMaterialId, batches, batchCode, onBatchCodeChange, canDelete }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const tenant = useSession((s) => s.tenantId);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [status, setStatus] = useState<LabelStatusFilter>('active');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [format, setFormat] = useState<LabelExportFormat>('pdf');
  const [template, setTemplate] = useState<LabelTemplate>('default');
  const [exporting, setExporting] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const remove = useBulkDeleteCartons(rawMaterialId);

  const filters: Record<string, string | number> = {
    raw_material: rawMaterialId,
    status,
    ...(batchCode ? { production_batch_code: batchCode } : {}),
    ...(search ? { search } : {}),
  };
  const query = useQuery(cartonLabelsQueryOptions(tenant, filters, page, pageSize));

  const resetPaging = () => {
    setPage(1);
    setSelected([]);
  };

  const deleteSelected = () => {
    if (selected.length === 0) {
      void message.warning(t('labels.selectToDelete'));
      return;
    }
    let reason = '';
    modal.confirm({
      title: t('labels.deleteTitle', { count: selected.length }),
      content: (
        <Flex vertical gap="small">
          <Typography.Text>{t('labels.deleteText')}</Typography.Text>
          <Input.TextArea
            maxLength={200}
            autoSize={{ minRows: 2 }}
            aria-label={t('labels.deleteReason')}
            placeholder={t('labels.deleteReason')}
            onChange={(e) => {
              reason = e.target.value;
            }}
            data-testid="delete-labels-reason"
          />
        </Flex>
      ),
      okText: t('common:actions.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete-labels' },
      cancelText: t('common:actions.cancel'),
      onOk: async () => {
        if (!reason.trim()) {
          void message.warning(t('labels.deleteReasonRequired'));
          // keeps the dialog open until a reason is given
          throw new Error('reason required');
        }
        try {
          const result = await remove.mutateAsync({ ids: selected, reason: reason.trim() });
          setSelected([]);
          void message.success(t('labels.deleted', { count: result.deleted, kg: formatKg(result.returned_kg, i18n.language) }));
        } catch (error) {
          void message.error(errorText(error));
        }
      },
    });
  };

  const runExport = async () => {
    setExporting(true);
    try {
      await exportLabels(filters, format, template);
      setExportOpen(false);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setExporting(false);
    }
  };

  const columns: TableProps<CartonLabel>['columns'] = [
    {
      title: t('labels.code'),
      dataIndex: 'code',
      render: (code: string, row) => (
        <Space size={4}>
          <Typography.Text code copyable={{ text: code }}>
            {code}
          </Typography.Text>
          {row.status === 'active' ? (
            <a href={row.qr_url} target="_blank" rel="noreferrer" aria-label={t('labels.openTrace', { code })}>
              <LinkOutlined />
            </a>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('fields.production_batch_code'),
      key: 'batch',
      render: (_: unknown, row) => `${row.production_batch_code} · ${row.batch_sequence}`,
    },
    { title: t('fields.article_number'), dataIndex: 'article_number' },
    { title: t('generate.product'), dataIndex: 'product_name', responsive: ['lg'] },
    { title: t('fields.purchase_order'), dataIndex: 'purchase_order', responsive: ['md'] },
    { title: t('fields.container'), dataIndex: 'container', responsive: ['md'] },
    { title: t('labels.netWeight'), dataIndex: 'net_weight_kg', align: 'right', render: (v: string) => t('units.kg', { value: formatKg(v, i18n.language) }) },
    { title: t('fields.status'), dataIndex: 'status', render: (v: string) => <StatusTag status={v} /> },
    {
      title: t('labels.life'),
      dataIndex: 'life',
      render: (v: string) => <Tag data-testid="label-life">{t(`labels.lives.${v}`, { defaultValue: v })}</Tag>,
    },
    {
      title: t('fields.created_at'),
      dataIndex: 'created_at',
      responsive: ['lg'],
      render: (v: string) => formatDateTime(v, i18n.language),
    },
  ];

  const exportPanel = (
    <Flex vertical gap="small" data-testid="export-panel">
      <Typography.Text strong>{t('labels.format')}</Typography.Text>
      <Radio.Group value={format} onChange={(e) => setFormat(e.target.value as LabelExportFormat)} optionType="button">
        {LABEL_FORMATS.map((value) => (
          <Radio.Button key={value} value={value} data-testid={`export-format-${value}`}>
            {t(`labels.formats.${value}`)}
          </Radio.Button>
        ))}
      </Radio.Group>
      <Typography.Text strong>{t('labels.template')}</Typography.Text>
      <Radio.Group value={template} onChange={(e) => setTemplate(e.target.value as LabelTemplate)} optionType="button" disabled={format !== 'pdf'}>
        {LABEL_TEMPLATES.map((value) => (
          <Radio.Button key={value} value={value} data-testid={`export-template-${value}`}>
            {t(`labels.templates.${value}`)}
          </Radio.Button>
        ))}
      </Radio.Group>
      <Typography.Text type="secondary">{t('labels.exportScope', { count: query.data?.count ?? 0 })}</Typography.Text>
      <Button type="primary" icon={<DownloadOutlined />} loading={exporting} onClick={() => void runExport()} disabled={(query.data?.count ?? 0) === 0} data-testid="export-labels-run">
        {t('labels.exportRun')}
      </Button>
    </Flex>
  );

  return (
    <Card title={t('labels.title')} size="small" className={styles.section} data-testid="labels-card">
      <Flex justify="space-between" wrap gap="small" className={styles.section}>
        <Flex wrap gap="small">
          <Input.Search
            allowClear
            placeholder={t('labels.searchPlaceholder')}
            aria-label={t('labels.searchPlaceholder')}
            onSearch={(value) => {
              setSearch(value.trim());
              resetPaging();
            }}
            className={styles.filterWide}
          />
          <Select
            allowClear
            placeholder={t('fields.production_batch_code')}
            aria-label={t('fields.production_batch_code')}
            value={batchCode}
            onChange={(value: string | undefined) => {
              onBatchCodeChange(value);
              resetPaging();
            }}
            options={batches.map((b) => ({ value: b.production_batch_code, label: b.production_batch_code }))}
            className={styles.filterNarrow}
          />
          <Select<LabelStatusFilter>
            value={status}
            aria-label={t('fields.status')}
            onChange={(value) => {
              setStatus(value);
              resetPaging();
            }}
            options={(['active', 'voided', 'all'] as const).map((value) => ({ value, label: t(`labels.statusFilter.${value}`) }))}
            className={styles.filterNarrow}
          />
        </Flex>
        <Flex wrap gap="small">
          {canDelete ? (
            <Button danger icon={<DeleteOutlined />} onClick={deleteSelected} loading={remove.isPending} data-testid="delete-labels">
              {selected.length > 0 ? t('labels.deleteSelectedCount', { count: selected.length }) : t('labels.deleteSelected')}
            </Button>
          ) : null}
          <PrintLabelsButton selected={selected} filter={filters} count={query.data?.count ?? 0} />
          <Popover content={exportPanel} trigger="click" open={exportOpen} onOpenChange={setExportOpen} placement="bottomRight">
            <Button icon={<DownloadOutlined />} data-testid="export-labels">
              {t('labels.export')}
            </Button>
          </Popover>
        </Flex>
      </Flex>
      {canDelete ? (
        <Typography.Paragraph type="secondary" className={styles.section}>
          {t('labels.deleteOnlyBefore')}
        </Typography.Paragraph>
      ) : null}
      <Table<CartonLabel>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={query.data?.results ?? []}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        rowSelection={
          canDelete
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                columnTitle: selectionTitle,
                onChange: (keys) => setSelected(keys.map(Number)),
                getCheckboxProps: (row) => ({
                  disabled: !canVoid(row),
                  title: row.status === 'active' && !canVoid(row) ? t('labels.notVoidable', { code: row.code }) : undefined,
                  'aria-label': t('labels.selectRow', { code: row.code }),
                }),
              }
            : undefined
        }
        pagination={{
          current: page,
          pageSize,
          total: query.data?.count ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100, 200],
          showTotal: (total) => t('common:table.total', { count: total }),
          onChange: (next, size) => {
            setPage(next);
            setPageSize(size);
          },
        }}
        data-testid="labels-table"
      />
    </Card>
  );
}
