import { Alert, App, Button, Checkbox, Col, DatePicker, Flex, Form, Input, InputNumber, Modal, Row, Select, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useErrorText } from '@/shared/errors/errorText';
import { useCreateReceipt, useWarehouses } from '../api/receipts';
import type { PurchaseOrderDetail, PurchaseOrderLine } from '../api/types';
import { compareQty, subtractQty } from '../lib/decimal';
import { useFormatters } from '@/shared/utils/format';
import { useMayPermission } from '@/shared/session/permissions';
import { PURCHASE_PERMS } from '../permissions';
import styles from './purchase.module.css';
import { paths } from '@/shared/routing/paths';

interface Props {
  order: PurchaseOrderDetail;
  open: boolean;
  onClose: () => void;
}

interface HeaderValues {
  warehouse?: number;
  receipt_date: Dayjs;
  note?: string;
  allow_over_receipt: boolean;
}

/**
 * Receive goods against the order's lines: a quantity per line (partial is fine), into a warehouse's
 * receiving location. More than the open quantity is refused unless allowed by a user who may.
 */
export function ReceiveDialog({ order, open, onClose }: Props) {
  const { t } = useTranslation('purchase');
  const { message, notification } = App.useApp();
  const errorText = useErrorText();
  const f = useFormatters();
  const mayOverReceive = useMayPermission(PURCHASE_PERMS.overReceive);
  const warehouses = useWarehouses(open);
  const create = useCreateReceipt();
  const [form] = Form.useForm<HeaderValues>();
  const [quantities, setQuantities] = useState<Record<number, string | null>>({});
  const [error, setError] = useState<string | null>(null);
  const allowOver = Form.useWatch('allow_over_receipt', form) ?? false;

  const defaultWarehouse = useMemo(() => {
    const list = warehouses.data?.results ?? [];
    return (list.find((w) => w.is_default) ?? list[0])?.id;
  }, [warehouses.data]);

  // The dialog is mounted per use (fresh quantities); the default warehouse arrives with the list.
  useEffect(() => {
    if (defaultWarehouse !== undefined && form.getFieldValue('warehouse') === undefined) {
      form.setFieldValue('warehouse', defaultWarehouse);
    }
  }, [form, defaultWarehouse]);

  const fillOpen = () =>
    setQuantities(Object.fromEntries(order.lines.filter((l) => compareQty(l.open_qty, '0') > 0).map((l) => [l.id, l.open_qty])));

  const over = (line: PurchaseOrderLine) => {
    const value = quantities[line.id];
    return Boolean(value) && compareQty(String(value), line.open_qty) > 0;
  };

  const submit = async () => {
    const header = await form.validateFields();
    const lines = order.lines
      .map((line) => ({ order_line: line.id, quantity: quantities[line.id] }))
      .filter((line): line is { order_line: number; quantity: string } => Boolean(line.quantity) && compareQty(String(line.quantity), '0') > 0)
      .map((line) => ({ order_line: line.order_line, quantity: String(line.quantity) }));
    if (lines.length === 0) {
      setError(t('receive.nothing'));
      return;
    }
    setError(null);
    try {
      const receipt = await create.mutateAsync({
        purchase_order: order.id,
        warehouse: header.warehouse ?? null,
        receipt_date: header.receipt_date.format('YYYY-MM-DD'),
        note: header.note ?? '',
        allow_over_receipt: header.allow_over_receipt,
        lines,
      });
      const completed = order.lines.every((line) => {
        const received = lines.find((l) => l.order_line === line.id)?.quantity ?? '0';
        return compareQty(subtractQty(line.open_qty, received), '0') <= 0;
      });
      notification.success({
        title: t('receive.done', { receiptNumber: receipt.receipt_number }),
        description: (
          <>
            {completed ? <div>{t('receive.completedToo')}</div> : null}
            <Link to={paths.purchaseReceipt(receipt.id)}>{receipt.receipt_number}</Link>
          </>
        ),
      });
      onClose();
    } catch (failure) {
      setError(errorText(failure));
      void message.error(errorText(failure));
    }
  };

  const columns: ColumnsType<PurchaseOrderLine> = [
    { title: t('line.line_number'), dataIndex: 'line_number', width: 56 },
    {
      title: t('line.product_number'),
      dataIndex: 'product_number',
      render: (value: string, line) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{line.line_description}</Typography.Text>
        </>
      ),
    },
    { title: t('line.order_qty'), dataIndex: 'order_qty', align: 'right', render: (v: string) => f.qty(v) },
    { title: t('line.received_qty'), dataIndex: 'received_qty', align: 'right', render: (v: string) => f.qty(v) },
    { title: t('line.open_qty'), dataIndex: 'open_qty', align: 'right', render: (v: string) => f.qty(v) },
    {
      title: t('receive.quantity'),
      key: 'quantity',
      width: 160,
      render: (_, line) => (
        <>
          <InputNumber<string>
            stringMode
            min="0"
            value={quantities[line.id] ?? null}
            onChange={(value) => setQuantities((current) => ({ ...current, [line.id]: value }))}
            status={over(line) && !allowOver ? 'error' : undefined}
            aria-label={t('receive.quantity')}
            data-testid={`receive-qty-${line.line_number}`}
          />
          {over(line) ? (
            <div>
              <Typography.Text type={allowOver ? 'warning' : 'danger'}>{t('receive.overWarning')}</Typography.Text>
            </div>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <Modal
      open={open}
      title={t('receive.title', { orderNumber: order.order_number })}
      onCancel={onClose}
      width={900}
      destroyOnHidden
      footer={
        <Flex justify="space-between" wrap gap="small">
          <Flex gap="small">
            <Button onClick={fillOpen}>{t('receive.fillOpen')}</Button>
            <Button onClick={() => setQuantities({})}>{t('receive.clear')}</Button>
          </Flex>
          <Flex gap="small">
            <Button onClick={onClose}>{t('form.cancel')}</Button>
            <Button type="primary" loading={create.isPending} onClick={() => void submit()} data-testid="receive-submit">
              {t('receive.submit')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Form<HeaderValues> form={form} layout="vertical" initialValues={{ receipt_date: dayjs(), allow_over_receipt: false }}>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="warehouse" label={t('receive.warehouse')}>
              <Select
                loading={warehouses.isLoading}
                options={(warehouses.data?.results ?? []).map((w) => ({ value: w.id, label: `${w.code} · ${w.name}` }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="receipt_date" label={t('receive.receiptDate')} rules={[{ required: true, message: t('form.required') }]}>
              <DatePicker format="YYYY-MM-DD" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="note" label={t('receive.note')} rules={[{ max: 500 }]}>
              <Input />
            </Form.Item>
          </Col>
          {mayOverReceive ? (
            <Col xs={24}>
              <Form.Item name="allow_over_receipt" valuePropName="checked">
                <Checkbox>{t('receive.allowOver')}</Checkbox>
              </Form.Item>
            </Col>
          ) : null}
        </Row>
      </Form>
      <Table<PurchaseOrderLine>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={order.lines}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      {error ? <Alert type="error" showIcon title={error} className={styles.spaced} /> : null}
    </Modal>
  );
}
