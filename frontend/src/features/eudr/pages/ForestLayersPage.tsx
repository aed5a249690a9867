import { InboxOutlined, RedoOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Empty, Flex, Form, Input, Modal, Progress, Radio, Table, Tag, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { UploadFile } from 'antd/es/upload/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { useErrorText } from '@/shared/errors/errorText';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { usePhone } from '@/shared/hooks/usePhone';
import { useHasPermission } from '@/shared/session/permissions';
import { formatFileSize } from '@/shared/utils/files';
import { formatDate, formatDateTime } from '@/shared/utils/format';
import { type ForestLayer, type ForestLayerKind, LAYER_KINDS, MANAGE_LAYERS, useDeleteLayer, useForestLayers, useProcessAgain, useUploadLayer } from '../api/forestLayers';
import styles from '../components/eudr.module.css';

const STATUS_COLOR: Record<ForestLayer['status'], string> = { uploaded: 'default', processing: 'processing', ready: 'success', failed: 'error' };

/**
 * /purchase/eudr/forest-layers: the forest maps of the 2020 forest check (installation-wide). A layer is
 * uploaded as a GeoTIFF, then computed over every plot within it in the background; the list is read
 * again while one is being processed (docs/duediligence.md, "The 2020 forest check").
 */
export default function ForestLayersPage({ pollMs }: { pollMs?: number }) {
  const { t } = useTranslation('dueDiligence');
  const query = useForestLayers(pollMs);
  const mayManage = useHasPermission(MANAGE_LAYERS);
  const [uploading, setUploading] = useState(false);

  return (
    <PageContainer
      extra={
        mayManage ? (
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="layer-upload">
            {t('layers.upload')}
          </Button>
        ) : undefined
      }
    >
      <Typography.Paragraph type="secondary">{t('layers.intro')}</Typography.Paragraph>
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <LayerTable layers={query.data} loading={query.isPending} mayManage={mayManage} />
      )}
      {mayManage ? <UploadDialog open={uploading} onClose={() => setUploading(false)} /> : null}
    </PageContainer>
  );
}

function LayerStatus({ layer }: { layer: ForestLayer }) {
  const { t } = useTranslation('dueDiligence');
  return (
    <Flex vertical gap={4} data-testid={`layer-status-${layer.id}`}>
      <span>
        <Tag color={STATUS_COLOR[layer.status]}>{t(`layers.status.${layer.status}`)}</Tag>
        {layer.stale ? <Tag color="warning">{t('layers.stalled')}</Tag> : null}
      </span>
      {layer.status === 'processing' && !layer.stale ? <Progress percent={layer.progress} size="small" aria-label={t('layers.progress')} /> : null}
      {layer.status === 'ready' ? <Typography.Text type="secondary">{t('layers.plotsDone', { count: layer.plots_done })}</Typography.Text> : null}
      {layer.status === 'failed' && layer.message ? <Typography.Text type="danger">{layer.message}</Typography.Text> : null}
    </Flex>
  );
}

function LayerTable({ layers, loading, mayManage }: { layers: ForestLayer[] | undefined; loading: boolean; mayManage: boolean }) {
  const { t, i18n } = useTranslation('dueDiligence');
  const phone = usePhone();
  const remove = useDeleteLayer();
  const again = useProcessAgain();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const processAgain = async (layer: ForestLayer) => {
    try {
      await again.mutateAsync(layer.id);
      void message.success(t('layers.processingAgain'));
    } catch (error) {
      void message.error(errorText(error));
    }
  };
  const bounds = (b: number[]) => (b.length === 4 ? `${b[0]}, ${b[1]} – ${b[2]}, ${b[3]}` : '—');
  const columns: ColumnsType<ForestLayer> = [
    {
      title: t('layers.name'),
      key: 'name',
      render: (_: unknown, layer) => (
        <>
          <Typography.Text strong>{layer.name}</Typography.Text>
          <div>
            <Typography.Text type="secondary">{[layer.source, formatDate(layer.layer_date, i18n.language)].filter(Boolean).join(' · ')}</Typography.Text>
          </div>
          <PhoneLine>{t(`layers.kinds.${layer.kind}`)}</PhoneLine>
          {phone ? <LayerStatus layer={layer} /> : null}
        </>
      ),
    },
    { title: t('layers.kind'), dataIndex: 'kind', hidden: phone, render: (kind: ForestLayerKind) => t(`layers.kinds.${kind}`) },
    { title: t('layers.status.title'), key: 'status', hidden: phone, render: (_: unknown, layer) => <LayerStatus layer={layer} /> },
    { title: t('layers.bounds'), dataIndex: 'bounds', hidden: phone, render: bounds },
    { title: t('layers.size'), dataIndex: 'size', hidden: phone, align: 'right', render: (size: number) => formatFileSize(size) },
    {
      title: t('layers.uploadedColumn'),
      key: 'uploaded',
      hidden: phone,
      render: (_: unknown, layer) => t('layers.uploadedBy', { name: layer.uploaded_by || '—', date: formatDateTime(layer.uploaded_at, i18n.language) }),
    },
    {
      title: t('layers.actions'),
      key: 'actions',
      hidden: !mayManage,
      render: (_: unknown, layer) => (
        <Flex gap="small">
          {layer.status === 'failed' || layer.stale ? (
            <Button size="small" icon={<RedoOutlined />} loading={again.isPending && again.variables === layer.id} onClick={() => void processAgain(layer)} data-testid={`layer-again-${layer.id}`}>
              {t('layers.processAgain')}
            </Button>
          ) : null}
          <ConfirmDelete itemLabel={layer.name} disabled={layer.status === 'processing' && !layer.stale} onConfirm={() => remove.mutateAsync(layer.id)} successMessage={t('layers.deleted')} />
        </Flex>
      ),
    },
  ];
  return (
    <Table<ForestLayer>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={layers ?? []}
      loading={loading}
      pagination={false}
      scroll={phone ? undefined : { x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('layers.empty')} /> }}
      data-testid="layer-table"
    />
  );
}

interface UploadValues {
  files: UploadFile[];
  name: string;
  kind: ForestLayerKind;
  source?: string;
  layer_date: string;
}

function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('dueDiligence');
  const { message } = App.useApp();
  const [percent, setPercent] = useState<number | null>(null);
  const upload = useUploadLayer(setPercent);
  const { form, onFinish, submitting, formError, clearFormError } = useApiForm<UploadValues>({
    submit: (values) => {
      setPercent(0);
      const file = values.files[0]?.originFileObj as File;
      return upload.mutateAsync({ file, name: values.name.trim(), kind: values.kind, source: values.source?.trim() ?? '', layer_date: values.layer_date }).finally(() => setPercent(null));
    },
    onSuccess: () => {
      void message.success(t('layers.uploaded'));
      onClose();
    },
  });
  const close = () => {
    clearFormError();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('layers.uploadTitle')}
      okText={t('layers.upload')}
      okButtonProps={{ 'data-testid': 'layer-upload-ok' }}
      cancelText={t('common:actions.cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('layers.uploadHelp')}</Typography.Paragraph>
      <Form<UploadValues> form={form} layout="vertical" preserve={false} initialValues={{ kind: 'forest_2020', files: [] }} onFinish={(values) => void onFinish(values)}>
        <Form.Item
          name="files"
          label={t('layers.file')}
          valuePropName="fileList"
          getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList.slice(-1)}
          rules={[{ required: true, type: 'array', min: 1, message: t('layers.fileRequired') }]}
        >
          <Upload.Dragger beforeUpload={() => false} maxCount={1} accept=".tif,.tiff,image/tiff" data-testid="layer-file">
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>{t('layers.drop')}</p>
          </Upload.Dragger>
        </Form.Item>
        <Form.Item name="name" label={t('layers.name')} rules={[{ required: true, whitespace: true, message: t('layers.nameRequired') }]}>
          <Input maxLength={200} data-testid="layer-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('layers.kind')}>
          <Radio.Group options={LAYER_KINDS.map((kind) => ({ value: kind, label: t(`layers.kinds.${kind}`) }))} />
        </Form.Item>
        <Form.Item name="source" label={t('layers.source')} extra={t('layers.sourceHelp')}>
          <Input maxLength={300} data-testid="layer-source" />
        </Form.Item>
        <Form.Item name="layer_date" label={t('layers.date')} rules={[{ required: true, message: t('layers.dateRequired') }]}>
          <Input type="date" data-testid="layer-date" />
        </Form.Item>
        {percent !== null ? <Progress percent={percent} aria-label={t('layers.uploading')} data-testid="layer-upload-progress" className={styles.section} /> : null}
        {formError ? <Alert type="error" showIcon title={formError} data-testid="layer-upload-error" /> : null}
      </Form>
    </Modal>
  );
}
