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
import { formatQty, useFormatters } from '@/shared/utils/format';
import { SALES_SHIPMENTS_URL, type PickLocation, type SalesShipment, pickScan, useSalesShipment, useShipPicked } from '../api/warehouse';
import { ScanField } from '../components/ScanField';
import { ScanLog } from '../components/ScanLog';
import styles from '../components/warehouse.module.css';
import { useScanner } from '../lib/useScanner';

/** /warehouse/deliveries ("Order Delivery"): the sales shipments to pick, oldest planned date first;
 *  one shipment: scan its cartons, then ship (a short pick leaves the rest open as a backorder). */
export default function WarehouseDeliveriesPage() {
  const { t } = useTranslation('warehouse');
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('shipment')) || null;
  const phone = usePhone();
  const f = useFormatters();
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
          <PhoneLine>{f.date(s.planned_date)}</PhoneLine>
          <PhoneLine>
            {t('fields.quantity')} {s.total_qty} · {t('fields.cartons')} {s.cartons_count}
          </PhoneLine>
        </>
      ),
    },
    { title: t('pick.customer'), dataIndex: 'customer_name', hidden: phone },
    { title: t('pick.planned'), dataIndex: 'planned_date', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
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
  const { t, i18n } = useTranslation('warehouse');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const shipment = useSalesShipment(id);
  const ship = useShipPicked();
  const scanner = useScanner(() => t('pick.picked'));
  // Location-first picking: scanning (or choosing) a location narrows the list to what is picked there.
  const [atLocation, setAtLocation] = useState<string | null>(null);
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
  const places = new Map<number, PickLocation[]>();
  for (const place of data?.pick_locations ?? []) places.set(place.shipment_line, [...(places.get(place.shipment_line) ?? []), place]);
  // The locations in walking order (the server sends them nearest first) with what each holds for this shipment.
  const locationCodes = [...new Set((data?.pick_locations ?? []).map((place) => place.code))];
  const lines = atLocation === null ? (data?.lines ?? []) : (data?.lines ?? []).filter((line) => (places.get(line.id) ?? []).some((p) => p.code === atLocation));
  const placeText = (place: PickLocation) =>
    place.cartons !== null ? t('pick.placeCartons', { code: place.code, count: place.cartons }) : t('pick.placeUnits', { code: place.code, quantity: Number(place.quantity) });
  const onScan = (code: string) => {
    const location = locationCodes.find((known) => known.toUpperCase() === code.trim().toUpperCase());
    if (location !== undefined) {
      setAtLocation(location);
      void message.info(t('pick.atLocation', { code: location }));
      return;
    }
    const here = atLocation;
    void scanner
      .scan(code, (scanId) => pickScan(id, code, scanId))
      .then(() => shipment.refetch())
      .then((fresh) => {
        // The last carton standing at the chosen location is picked: that place is done, the whole list
        // shows again (instead of an empty one) and the worker is told so.
        if (here !== null && fresh.data && !fresh.data.pick_locations.some((place) => place.code === here)) {
          setAtLocation(null);
          void message.success(t('pick.locationDone', { code: here }));
        }
      });
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
          onScan={onScan}
        />
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
            {open && locationCodes.length ? (
              <Select<string>
                allowClear
                className={styles.full}
                value={atLocation ?? undefined}
                onChange={(value) => setAtLocation(value ?? null)}
                placeholder={t('pick.locationFirst')}
                aria-label={t('pick.locationFirst')}
                options={locationCodes.map((code) => ({ value: code, label: code }))}
                data-testid="pick-location"
              />
            ) : null}
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              scroll={{ x: true }}
              dataSource={lines}
              locale={{ emptyText: atLocation ? t('pick.nothingHere', { code: atLocation }) : undefined }}
              columns={[
                // Article, picked of wanted and where: three columns, so that a phone shows each line whole.
                {
                  title: t('fields.article'),
                  key: 'article',
                  render: (_, l) => (
                    <>
                      <div>{l.product_number}</div>
                      <Typography.Text type="secondary" className={styles.lineName}>
                        {l.product_name}
                      </Typography.Text>
                    </>
                  ),
                },
                {
                  title: t('pick.pickedOfQuantity'),
                  key: 'picked',
                  align: 'right',
                  render: (_, l) => (
                    <span className={styles.nowrap}>
                      <span data-testid={`picked-${l.product_number}`}>{picked.get(l.id) ?? 0}</span> / {formatQty(l.quantity, i18n.language)}
                    </span>
                  ),
                },
                ...(open
                  ? [
                      {
                        title: t('pick.where'),
                        key: 'where',
                        render: (_: unknown, l: (typeof lines)[number]) => {
                          const here = places.get(l.id) ?? [];
                          if (!here.length) return <Typography.Text type="secondary">{t('pick.nowhere')}</Typography.Text>;
                          return (
                            <Space size={[4, 4]} wrap data-testid={`where-${l.product_number}`}>
                              {here.map((place) => (
                                <Tag key={place.location} color={place.code === atLocation ? 'blue' : undefined}>
                                  {placeText(place)}
                                </Tag>
                              ))}
                            </Space>
                          );
                        },
                      },
                    ]
                  : []),
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
