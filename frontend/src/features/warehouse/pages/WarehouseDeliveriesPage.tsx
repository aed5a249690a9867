import { ArrowLeftOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions, Popconfirm, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { ListPage } from '@/shared/components/ListPage';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { SALES_SHIPMENTS_URL, type SalesShipment, pickScan, useSalesShipment, useShipPicked } from '../api/warehouse';
import { ScanField } from '../components/ScanField';
import { ScanLog } from '../components/ScanLog';
import styles from '../components/warehouse.module.css';
import { useScanner } from '../lib/useScanner';

/** /warehouse/deliveries ("Order Delivery"): the sales shipments to pick, oldest planned date first;
 *  one shipment: scan its cartons, then ship (a short pick leaves the rest open as a backorder).
 *  Each line says where its goods are (nearest first: location code order, docs/warehouse.md); scanning
 *  (or choosing) a location first narrows the lines to what is picked there. */
export default function WarehouseDeliveriesPage() {
  const { t } = useTranslation('warehouse');
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('shipment')) || null;
  const phone = usePhone();
  const select = (value: number | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value === null) next.delete('shipment');
      else next.set('shipment', String(value));
      return next;
    });
  if (id !== null) {
    return (
      <PageContainer>
        <PickShipment id={id} onBack={() => select(null)} />
      </PageContainer>
    );
  }
  const columns: ServerColumn<SalesShipment>[] = [
    // On a phone (below 576px): the shipment with its customer, planned date, quantity and cartons under
    // it, and the status.
    {
      title: t('pick.shipment'),
      dataIndex: 'shipment_number',
      sorter: true,
      render: (v: string, s) => (
        <>
          <Typography.Text strong>{v}</Typography.Text>
          <PhoneLine>{s.customer_name}</PhoneLine>
          <PhoneLine>{s.planned_date ?? '—'}</PhoneLine>
          <PhoneLine>
            {t('fields.quantity')} {s.total_qty} · {t('fields.cartons')} {s.cartons_count}
          </PhoneLine>
        </>
      ),
    },
    { title: t('pick.customer'), dataIndex: 'customer_name', hidden: phone },
    { title: t('pick.planned'), dataIndex: 'planned_date', sorter: true, hidden: phone, render: (v: string | null) => v ?? '—' },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      render: (v: string) => <Tag>{t(`pick.status.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('fields.quantity'), dataIndex: 'total_qty', align: 'right', hidden: phone },
    { title: t('fields.cartons'), dataIndex: 'cartons_count', align: 'right', hidden: phone },
  ];
  return (
    <ListPage<SalesShipment>
      endpoint={`${SALES_SHIPMENTS_URL}?status=draft,picked`}
      rowKey="id"
      columns={columns}
      exportable={false}
      listOptions={{ defaultOrdering: 'planned_date' }}
      searchPlaceholder={t('pick.searchPlaceholder')}
      onRowClick={(s) => select(s.id)}
    />
  );
}

function PickShipment({ id, onBack }: { id: number; onBack: () => void }) {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const shipment = useSalesShipment(id);
  const ship = useShipPicked();
  const scanner = useScanner(() => t('pick.picked'));
  const [at, setAt] = useState<number | null>(null);

  if (shipment.isError) return <ErrorState error={shipment.error} onRetry={() => void shipment.refetch()} />;
  const data = shipment.data;
  const picked = new Map<number, number>();
  for (const carton of data?.cartons ?? []) picked.set(carton.shipment_line, (picked.get(carton.shipment_line) ?? 0) + 1);
  const open = data ? data.status === 'draft' || data.status === 'picked' : false;
  const cartonsWanted = (data?.lines ?? []).reduce((sum, line) => sum + Number(line.quantity), 0);
  // Per line: picked cartons, cartons missing (labelled lines ship only as picked cartons) and what stays
  // open on the order line once this shipment ships.
  const summary = (data?.lines ?? []).map((line) => {
    const count = picked.get(line.id) ?? 0;
    const quantity = Number(line.quantity);
    return {
      line,
      picked: count,
      missing: line.labelled ? Math.max(quantity - count, 0) : 0,
      left: Math.max(Number(line.ordered_quantity) - Number(line.shipped_quantity) - quantity, 0),
    };
  });
  // The locations of the pick list, nearest first (the server orders each line's by location code).
  const locations = new Map<number, string>();
  for (const line of data?.lines ?? []) for (const where of line.pick_locations) locations.set(where.location, where.location_code);
  const locationOptions = [...locations.entries()]
    .sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0])
    .map(([value, label]) => ({ value, label }));
  const atCode = at === null ? null : (locations.get(at) ?? null);
  const lines = at === null ? (data?.lines ?? []) : (data?.lines ?? []).filter((line) => line.pick_locations.some((where) => where.location === at));
  // A scanned location label is the bare code or "<warehouse>/<code>" (docs/warehouse.md, "Put-away").
  const scannedLocation = (code: string): number | null => {
    const value = code.trim().toUpperCase();
    for (const [location, locationCode] of locations) {
      const bare = locationCode.toUpperCase();
      if (value === bare || value === `${(data?.warehouse_code ?? '').toUpperCase()}/${bare}`) return location;
    }
    return null;
  };
  const missing = summary.some((row) => row.missing > 0);
  // "Ship only what is picked" is offered when a labelled line lacks cartons and something would still ship.
  const short = missing && summary.some((row) => (row.line.labelled ? row.picked > 0 : Number(row.line.quantity) > 0));
  const shipSummary = (
    <div data-testid="ship-summary">
      <ul className={styles.shipSummary}>
        {summary.map((row) => (
          <li key={row.line.id} data-testid={`ship-summary-${row.line.product_number}`}>
            <Typography.Text strong>{row.line.product_number}</Typography.Text>{' '}
            {row.line.labelled
              ? t('pick.summaryLabelled', { picked: row.picked, quantity: row.line.quantity, missing: row.missing, left: row.left })
              : t('pick.summaryUnlabelled', { quantity: row.line.quantity, left: row.left })}
          </li>
        ))}
      </ul>
      {missing ? <Typography.Text type="warning">{t('pick.summaryMissing')}</Typography.Text> : null}
    </div>
  );

  const doShip = (shortPick: boolean) => {
    if (!data) return;
    ship.mutate(
      { shipment: data, shortPick },
      {
        onSuccess: () => {
          void message.success(t('pick.shipped', { number: data.shipment_number }));
          void shipment.refetch();
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  return (
    <Space orientation="vertical" size="middle" className={styles.full}>
      <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
        {t('pick.back')}
      </Button>
      {open ? (
        <ScanField
          label={t('pick.scanLabel')}
          busy={scanner.busy}
          pending={scanner.pending}
          onScan={(code) => {
            const location = scannedLocation(code);
            if (location !== null) {
              setAt(location);
              void message.info(t('pick.locationScanned', { location: locations.get(location) }));
              return;
            }
            void scanner.scan(code, (scanId) => pickScan(id, code, scanId)).then(() => void shipment.refetch());
          }}
        />
      ) : null}
      {open && locationOptions.length ? (
        <Space wrap>
          <label htmlFor="pick-at">{t('pick.pickAt')}</label>
          <Select
            id="pick-at"
            data-testid="pick-at"
            className={styles.pickAt}
            allowClear
            placeholder={t('pick.pickAtPlaceholder')}
            value={at}
            options={locationOptions}
            onChange={(value: number | null | undefined) => setAt(value ?? null)}
          />
        </Space>
      ) : null}
      {atCode !== null ? (
        <Space wrap>
          <Tag color="blue" data-testid="picking-at">
            {t('pick.pickingAt', { location: atCode, count: lines.length })}
          </Tag>
          <Button size="small" onClick={() => setAt(null)}>
            {t('pick.allLocations')}
          </Button>
        </Space>
      ) : null}
      <ScanLog entries={scanner.log} />
      <Card loading={shipment.isPending} title={data ? `${data.shipment_number} · ${data.customer_name}` : null}>
        {data ? (
          <>
            <Descriptions size="small" column={1}>
              <Descriptions.Item label={t('pick.order')}>{data.order_number}</Descriptions.Item>
              <Descriptions.Item label={t('fields.status')}>
                <Tag data-testid="pick-status">{t(`pick.status.${data.status}`, { defaultValue: data.status })}</Tag>
              </Descriptions.Item>
            </Descriptions>
            <Progress percent={cartonsWanted ? Math.min(100, Math.round((100 * data.cartons.length) / cartonsWanted)) : 0} aria-label={t('fields.cartons')} />
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              scroll={{ x: true }}
              dataSource={lines}
              columns={[
                { title: t('fields.article'), key: 'article', render: (_, l) => `${l.product_number} ${l.product_name}` },
                { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right' },
                {
                  title: t('pick.where'),
                  key: 'where',
                  hidden: !open,
                  render: (_, l) =>
                    l.pick_locations.length ? (
                      <ul className={styles.whereList} data-testid={`where-${l.product_number}`}>
                        {l.pick_locations
                          .filter((where) => at === null || where.location === at)
                          .map((where) => (
                            <li key={where.location}>
                              {t('pick.whereRow', { location: where.location_code, onHand: Number(where.on_hand), cartons: where.cartons })}
                            </li>
                          ))}
                      </ul>
                    ) : (
                      <Typography.Text type="secondary" data-testid={`where-${l.product_number}`}>
                        {t('pick.whereNone')}
                      </Typography.Text>
                    ),
                },
                { title: t('pick.pickedCartons'), key: 'picked', align: 'right', render: (_, l) => <span data-testid={`picked-${l.product_number}`}>{picked.get(l.id) ?? 0}</span> },
              ]}
            />
            {data.cartons.length ? (
              <Typography.Paragraph type="secondary" className={styles.codes}>
                {data.cartons.map((c) => c.code).join(' · ')}
              </Typography.Paragraph>
            ) : null}
            {open ? (
              <Space orientation="vertical" className={styles.full}>
                <Popconfirm
                  title={t('pick.shipConfirm', { number: data.shipment_number })}
                  description={shipSummary}
                  okText={t('pick.ship')}
                  onConfirm={() => doShip(false)}
                >
                  <Button type="primary" size="large" block className={styles.bigButton} loading={ship.isPending} data-testid="ship">
                    {t('pick.ship')}
                  </Button>
                </Popconfirm>
                {short ? (
                  <Popconfirm title={t('pick.shortConfirm')} description={shipSummary} okText={t('pick.shipPicked')} onConfirm={() => doShip(true)}>
                    <Button size="large" block className={styles.bigButton} loading={ship.isPending} data-testid="ship-picked">
                      {t('pick.shipPicked')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ) : null}
          </>
        ) : null}
      </Card>
    </Space>
  );
}
