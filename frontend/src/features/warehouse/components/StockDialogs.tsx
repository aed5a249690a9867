import { Alert, App, Button, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { useApiForm } from '@/shared/hooks/useApiForm';
import {
  deleteReorderPoint,
  fetchReorderPoint,
  postCount,
  postReorderPoint,
  postTransfer,
  type StockCount,
  useInvalidateWarehouse,
} from '../api/warehouse';
import { ProductSelect } from './ProductSelect';

interface Props {
  open: boolean;
  onClose: () => void;
  locations: { value: string; label: string }[];
}

interface TransferValues {
  product: number;
  from_location: string;
  to_location: string;
  quantity: number;
  note?: string;
}

/** Moves a quantity of a product between two locations (POST /api/inventory/transfers/). */
export function TransferDialog({ open, onClose, locations }: Props) {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const invalidate = useInvalidateWarehouse();
  const { form, onFinish, submitting, formError } = useApiForm<TransferValues>({
    submit: (v) =>
      postTransfer({
        product: v.product,
        from_location: Number(v.from_location),
        to_location: Number(v.to_location),
        quantity: String(v.quantity),
        note: v.note ?? '',
      }),
    onSuccess: () => {
      void message.success(t('transfer.done'));
      void invalidate();
      form.resetFields();
      onClose();
    },
  });
  return (
    <Modal open={open} title={t('transfer.title')} okText={t('transfer.submit')} onOk={() => form.submit()} confirmLoading={submitting} onCancel={onClose} destroyOnHidden>
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)}>
        <Form.Item name="product" label={t('fields.product')} rules={[{ required: true, message: t('validation.required') }]}>
          <ProductSelect />
        </Form.Item>
        <Form.Item name="from_location" label={t('fields.from')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select size="large" showSearch={{ optionFilterProp: 'label' }} options={locations} />
        </Form.Item>
        <Form.Item name="to_location" label={t('fields.to')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select size="large" showSearch={{ optionFilterProp: 'label' }} options={locations} />
        </Form.Item>
        <Form.Item name="quantity" label={t('fields.quantity')} rules={[{ required: true, message: t('validation.required') }]}>
          <InputNumber size="large" min={0.001} step={1} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="note" label={t('fields.note')}>
          <Input maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface CountValues {
  product: number;
  location: string;
  counted_quantity: number;
  reason?: string;
}

/** Records a counted quantity; the difference to the stock is posted as an adjustment with the reason. */
export function CountDialog({ open, onClose, locations }: Props) {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const invalidate = useInvalidateWarehouse();
  const { form, onFinish, submitting, formError } = useApiForm<CountValues, StockCount>({
    submit: (v) =>
      postCount({
        lines: [
          { product: v.product, location: Number(v.location), counted_quantity: String(v.counted_quantity), reason: v.reason ?? '' },
        ],
        note: '',
      }),
    onSuccess: (count) => {
      const difference = count.lines[0]?.difference ?? '0';
      void message.success(t('count.done', { number: count.number, difference }));
      void invalidate();
      form.resetFields();
      onClose();
    },
  });
  return (
    <Modal open={open} title={t('count.title')} okText={t('count.submit')} onOk={() => form.submit()} confirmLoading={submitting} onCancel={onClose} destroyOnHidden>
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)}>
        <Form.Item name="product" label={t('fields.product')} rules={[{ required: true, message: t('validation.required') }]}>
          <ProductSelect />
        </Form.Item>
        <Form.Item name="location" label={t('fields.location')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select size="large" showSearch={{ optionFilterProp: 'label' }} options={locations} />
        </Form.Item>
        <Form.Item name="counted_quantity" label={t('fields.countedQuantity')} rules={[{ required: true, message: t('validation.required') }]}>
          <InputNumber size="large" min={0} step={1} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="reason" label={t('fields.reason')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface ReorderValues {
  reorder_point: number;
}

interface ReorderProps {
  /** The product whose point is set; null = closed. */
  product: { id: number; article_number: string; reorder_point: string | null } | null;
  onClose: () => void;
}

/** Sets, changes or removes a product's reorder point (one per product, over all locations): the stock's
 *  "below reorder point" filter lists the products whose available quantity is below it. */
export function ReorderPointDialog({ product, onClose }: ReorderProps) {
  const { t } = useTranslation('warehouse');
  const { message, modal } = App.useApp();
  const invalidate = useInvalidateWarehouse();
  const errorText = useErrorText();
  const [removing, setRemoving] = useState(false);
  const { form, onFinish, submitting, formError } = useApiForm<ReorderValues>({
    submit: (v) => postReorderPoint({ product: product?.id ?? 0, reorder_point: String(v.reorder_point) }),
    onSuccess: () => {
      void message.success(t('reorder.saved'));
      void invalidate();
      onClose();
    },
  });
  const remove = () =>
    modal.confirm({
      title: t('reorder.removeConfirm', { article: product?.article_number ?? '' }),
      okText: t('reorder.remove'),
      okButtonProps: { danger: true },
      onOk: async () => {
        if (!product) return;
        setRemoving(true);
        try {
          const found = await fetchReorderPoint(product.id);
          const point = found.results[0];
          if (point) await deleteReorderPoint(point.id);
          void message.success(t('reorder.removed'));
          void invalidate();
          onClose();
        } catch (error) {
          void message.error(errorText(error));
        } finally {
          setRemoving(false);
        }
      },
    });
  return (
    <Modal
      open={product !== null}
      title={t('reorder.title', { article: product?.article_number ?? '' })}
      okText={t('reorder.save')}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      onCancel={onClose}
      destroyOnHidden
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          {product?.reorder_point !== null && product?.reorder_point !== undefined ? (
            <Button danger onClick={remove} loading={removing} data-testid="reorder-remove">
              {t('reorder.remove')}
            </Button>
          ) : null}
          <CancelBtn />
          <OkBtn />
        </>
      )}
    >
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        initialValues={{ reorder_point: product?.reorder_point !== null && product ? Number(product.reorder_point) : undefined }}
      >
        <Form.Item
          name="reorder_point"
          label={t('fields.reorderPoint')}
          extra={t('reorder.help')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <InputNumber size="large" min={0} step={1} precision={3} style={{ width: '100%' }} data-testid="reorder-input" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
