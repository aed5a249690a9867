import { DeleteOutlined, FilePdfOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Flex, Input, Popconfirm, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePhone } from '@/shared/hooks/usePhone';
import { useMayPermission } from '../hooks/usePermission';
import { useFormatters } from '@/shared/utils/format';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import {
  deliveryNoteUrl,
  openPdf,
  useAddCartons,
  useCreateInvoice,
  useDeleteShipment,
  useRemoveCartons,
  useShipment,
  useShipmentAction,
} from '../api/sales';
import { ShipmentStatusTag } from './StatusTags';
import { paths } from '@/shared/routing/paths';

/** One shipment: lines, cartons (scanned or typed codes), and its actions (pick, ship, deliver, delivery
 * note, invoice, delete). Used on the order page and the shipments page. */
export function ShipmentPanel({ id, showOrder = false }: { id: number; showOrder?: boolean }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const f = useFormatters();
  const query = useShipment(id);
  const action = useShipmentAction();
  const addCartons = useAddCartons();
  const removeCartons = useRemoveCartons();
  const remove = useDeleteShipment();
  const invoice = useCreateInvoice();
  const [codes, setCodes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mayPick = useMayPermission('salesorders.pick_shipment');
  const phone = usePhone();
  const mayInvoice = useMayPermission('salesorders.add_invoice');

  if (query.isLoading) return <Skeleton active />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const shipment = query.data;
  if (!shipment) return null;
  const open = shipment.status === 'draft' || shipment.status === 'picked';
  const onError = (err: unknown) => setError(errorText(err));

  const submitCodes = () => {
    const list = codes.split(/[\s,;]+/).filter(Boolean);
    if (list.length === 0) return;
    setError(null);
    addCartons.mutate(
      { id, codes: list },
      {
        onSuccess: () => {
          setCodes('');
          void message.success(t('shipment.cartonsAdded'));
        },
        onError,
      },
    );
  };

  const cartonTags = (line: number) => {
    const cartons = shipment.cartons.filter((c) => c.shipment_line === line);
    if (!cartons.length) return null;
    return (
      <Flex gap={4} wrap>
        {cartons.map((c) => (
          <Tag
            key={c.id}
            closable={open && mayPick}
            closeIcon={open && mayPick ? <span aria-label={t('shipment.removeCarton', { code: c.code })}>×</span> : undefined}
            onClose={(e) => {
              e.preventDefault();
              removeCartons.mutate({ id, codes: [c.code] }, { onError });
            }}
            data-testid="shipment-carton"
          >
            {c.code}
          </Tag>
        ))}
      </Flex>
    );
  };

  return (
    <Card
      size="small"
      title={
        <Flex gap="small" align="center" wrap>
          <Typography.Text strong data-testid="shipment-number">
            {shipment.shipment_number}
          </Typography.Text>
          <ShipmentStatusTag status={shipment.status} />
          {showOrder ? (
            <Button type="link" onClick={() => void navigate(paths.salesOrder(shipment.sales_order))}>
              {shipment.order_number} · {shipment.customer_name}
            </Button>
          ) : null}
        </Flex>
      }
    >
      {/* the actions under the title, not beside it: on a phone they would squeeze the title away */}
      <Flex gap="small" wrap style={{ marginBottom: 12 }} data-testid="shipment-actions">
        {mayPick && shipment.status === 'draft' ? (
          <Button onClick={() => action.mutate({ id, action: 'pick' }, { onError })} loading={action.isPending}>
            {t('shipment.pick')}
          </Button>
        ) : null}
        {mayPick && open ? (
          <Popconfirm title={t('shipment.confirmShip')} onConfirm={() => action.mutate({ id, action: 'ship' }, { onError })}>
            <Button type="primary" loading={action.isPending} data-testid="ship-shipment">
              {t('shipment.ship')}
            </Button>
          </Popconfirm>
        ) : null}
        {shipment.status === 'shipped' ? (
          <Button onClick={() => action.mutate({ id, action: 'deliver' }, { onError })}>{t('shipment.deliver')}</Button>
        ) : null}
        {mayInvoice && !open ? (
          <Button
            onClick={() =>
              invoice.mutate({ shipments: [id] }, { onSuccess: (inv) => void navigate(paths.salesInvoice(inv.id)), onError })
            }
            loading={invoice.isPending}
            data-testid="invoice-shipment"
          >
            {t('shipment.invoice')}
          </Button>
        ) : null}
        <Button icon={<FilePdfOutlined />} onClick={() => void openPdf(deliveryNoteUrl(id)).catch(onError)}>
          {t('shipment.deliveryNote')}
        </Button>
        {open ? (
          <Popconfirm title={t('shipment.confirmDelete')} onConfirm={() => remove.mutate(id, { onError })}>
            <Button danger icon={<DeleteOutlined />} aria-label={t('shipment.delete')} />
          </Popconfirm>
        ) : null}
      </Flex>
      <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
        <Descriptions.Item label={t('fields.warehouse')}>{shipment.warehouse_code}</Descriptions.Item>
        <Descriptions.Item label={t('fields.planned_date')}>{f.date(shipment.planned_date)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.shipped_at')}>{f.date(shipment.shipped_at)}</Descriptions.Item>
      </Descriptions>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={shipment.lines}
        // On a phone, three columns: the line's cartons go under its product, so nothing is cut off.
        columns={[
          { title: '#', dataIndex: 'line_number', width: phone ? 36 : 50 },
          {
            title: t('fields.product'),
            key: 'product',
            render: (_, l) =>
              phone ? (
                <>
                  <div>{l.product_number}</div>
                  <Typography.Text type="secondary">{l.product_name}</Typography.Text>
                  {cartonTags(l.id)}
                </>
              ) : (
                `${l.product_number} ${l.product_name}`
              ),
          },
          { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right', render: (v: string) => f.qty(v) },
          { title: t('fields.cartons'), key: 'cartons', hidden: phone, render: (_, l) => cartonTags(l.id) },
        ]}
      />
      {open && mayPick ? (
        <Flex gap="small" style={{ marginTop: 12 }} align="start" wrap>
          <label htmlFor={`carton-codes-${id}`} className="sr-only">
            {t('shipment.cartonCodes')}
          </label>
          <Input.TextArea
            id={`carton-codes-${id}`}
            aria-label={t('shipment.cartonCodes')}
            placeholder={t('shipment.cartonPlaceholder')}
            value={codes}
            autoSize={{ minRows: 1, maxRows: 4 }}
            style={{ flex: 1, minWidth: 240 }}
            onChange={(e) => setCodes(e.target.value)}
            onPressEnter={(e) => {
              if (!e.shiftKey) {
                e.preventDefault();
                submitCodes();
              }
            }}
            data-testid="carton-codes"
          />
          <Button onClick={submitCodes} loading={addCartons.isPending} data-testid="add-cartons">
            {t('shipment.addCartons')}
          </Button>
        </Flex>
      ) : shipment.cartons.length === 0 ? (
        <Typography.Text type="secondary">{t('shipment.noCartons')}</Typography.Text>
      ) : null}
      {error ? <Alert type="error" showIcon title={error} closable={{ onClose: () => setError(null) }} style={{ marginTop: 12 }} data-testid="shipment-error" /> : null}
    </Card>
  );
}
