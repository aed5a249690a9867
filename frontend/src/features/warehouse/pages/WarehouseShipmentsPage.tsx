import { ArrowLeftOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions, Popconfirm, Progress, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { PageContainer } from '@/shared/components/PageContainer';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { useFormatters } from '@/shared/utils/format';
import {
  INBOUND_URL,
  type InboundShipment,
  fetchLocationByCode,
  moveScan,
  receiveScan,
  useInbound,
  usePostReceipts,
  useWarehouses,
  type Location,
} from '../api/warehouse';
import { ScanField } from '../components/ScanField';
import { ScanLog } from '../components/ScanLog';
import styles from '../components/warehouse.module.css';
import { scanFeedback } from '../lib/feedback';
import { useScanner } from '../lib/useScanner';

const STATUSES = ['planned', 'in_transit', 'arrived', 'received'] as const;

/** /warehouse/shipments: containers arriving; one container: scan its cartons in, then post the receipts.
 *  The "put away" mode moves cartons: scan a location's code, then the cartons. */
export default function WarehouseShipmentsPage() {
  const { t } = useTranslation('warehouse');
  const [params, setParams] = useSearchParams();
  const mode = params.get('mode') === 'putaway' ? 'putaway' : 'receive';
  const shipmentId = Number(params.get('shipment')) || null;
  const phone = usePhone();
  const f = useFormatters();
  const setParam = (key: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value === null) next.delete(key);
      else next.set(key, value);
      return next;
    });

  const switcher = (
    <Segmented
      size="large"
      value={mode}
      onChange={(value) => setParam('mode', value === 'putaway' ? 'putaway' : null)}
      options={[
        { value: 'receive', label: t('receive.mode') },
        { value: 'putaway', label: t('putaway.mode') },
      ]}
    />
  );

  if (mode === 'putaway') {
    return (
      <PageContainer extra={switcher}>
        <PutAway />
      </PageContainer>
    );
  }
  if (shipmentId !== null) {
    return (
      <PageContainer extra={switcher}>
        <ReceiveShipment id={shipmentId} onBack={() => setParam('shipment', null)} />
      </PageContainer>
    );
  }

  // On a phone (below 576px): the container with its arrival, and the status with the cartons received.
  const columns: ServerColumn<InboundShipment>[] = [
    {
      title: t('fields.container'),
      dataIndex: 'container_number',
      sorter: true,
      render: (v: string, s) => (
        <>
          <Typography.Text strong>{v}</Typography.Text>
          {s.eta ? <PhoneLine>{`${t('fields.eta')} ${f.date(s.eta)}`}</PhoneLine> : null}
        </>
      ),
    },
    { title: t('fields.eta'), dataIndex: 'eta', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      render: (v: string, s) => (
        <>
          <Tag>{t(`inboundStatus.${v}`, { defaultValue: v })}</Tag>
          <PhoneLine>{t('receive.progress', { received: s.cartons_received, expected: s.cartons_expected })}</PhoneLine>
        </>
      ),
    },
    {
      title: t('fields.purchaseOrders'),
      key: 'orders',
      hidden: phone,
      render: (_, s) => (
        <Space wrap size={[4, 4]}>
          {s.purchase_orders.map((o) => (
            <Tag key={o}>{o}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('fields.cartons'),
      key: 'cartons',
      hidden: phone,
      render: (_, s) => (
        <span data-testid={`inbound-count-${s.container_number}`}>
          {t('receive.progress', { received: s.cartons_received, expected: s.cartons_expected })}
        </span>
      ),
    },
  ];
  return (
    <ListPage<InboundShipment>
      endpoint={INBOUND_URL}
      rowKey="id"
      columns={columns}
      exportable={false}
      searchPlaceholder={t('receive.searchPlaceholder')}
      onRowClick={(s) => setParam('shipment', String(s.id))}
      actions={switcher}
      filters={(list) => (
        <Select
          allowClear
          className={styles.filter}
          placeholder={t('fields.status')}
          aria-label={t('fields.status')}
          value={typeof list.filters.status === 'string' ? list.filters.status : undefined}
          onChange={(value?: string) => list.setFilter('status', value ?? null)}
          options={STATUSES.map((value) => ({ value, label: t(`inboundStatus.${value}`) }))}
        />
      )}
    />
  );
}

function useLocationOptions() {
  const warehouses = useWarehouses();
  return useMemo(
    () =>
      (warehouses.data?.results ?? []).map((w) => ({
        label: `${w.code} ${w.name}`,
        options: w.locations.filter((l) => l.is_active).map((l) => ({ value: l.id, label: `${w.code}/${l.code}` })),
      })),
    [warehouses.data],
  );
}

function ReceiveShipment({ id, onBack }: { id: number; onBack: () => void }) {
  const { t } = useTranslation('warehouse');
  const f = useFormatters();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const shipment = useInbound(id);
  const locationOptions = useLocationOptions();
  const [location, setLocation] = useState<number | null>(null);
  const post = usePostReceipts();
  const scanner = useScanner((result) =>
    t('receive.scanned', { article: result.carton.article_number, location: result.carton.location_code }),
  );

  if (shipment.isError) return <ErrorState error={shipment.error} onRetry={() => void shipment.refetch()} />;
  const data = shipment.data;
  const percent = data && data.cartons_expected ? Math.round((100 * data.cartons_received) / data.cartons_expected) : 0;

  return (
    <Space orientation="vertical" size="middle" className={styles.full}>
      <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
        {t('receive.back')}
      </Button>
      <ScanField
        label={t('receive.scanLabel')}
        busy={scanner.busy}
        pending={scanner.pending}
        onScan={(code) => void scanner.scan(code, (scanId) => receiveScan({ code, scan_id: scanId, shipment: id, location }))}
      />
      <Select
        size="large"
        allowClear
        className={styles.full}
        aria-label={t('receive.location')}
        placeholder={t('receive.defaultLocation')}
        value={location ?? undefined}
        onChange={(value?: number) => setLocation(value ?? null)}
        options={locationOptions}
      />
      <ScanLog entries={scanner.log} />
      <Card loading={shipment.isPending} title={data?.container_number}>
        {data ? (
          <>
            <Descriptions size="small" column={1}>
              <Descriptions.Item label={t('fields.purchaseOrders')}>{data.purchase_orders.join(', ') || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('fields.eta')}>{f.date(data.eta)}</Descriptions.Item>
            </Descriptions>
            <Progress percent={percent} aria-label={t('fields.cartons')} />
            <Typography.Paragraph data-testid="inbound-progress">
              {t('receive.progress', { received: data.cartons_received, expected: data.cartons_expected })}
              {data.cartons_pending ? ` · ${t('receive.pending', { count: data.cartons_pending })}` : ''}
            </Typography.Paragraph>
            <Table
              size="small"
              rowKey="order_line"
              pagination={false}
              scroll={{ x: true }}
              dataSource={data.lines}
              // Three columns, so that a phone shows every line whole: the order line with its article under
              // it, scanned of expected, and not yet posted.
              columns={[
                {
                  title: t('fields.order'),
                  key: 'order',
                  render: (_, l) => (
                    <>
                      <div>{`${String(l.order_number)}/${String(l.line_number)}`}</div>
                      <Typography.Text type="secondary">{l.article_number}</Typography.Text>
                    </>
                  ),
                },
                {
                  title: t('fields.scannedOfExpected'),
                  key: 'scanned',
                  align: 'right',
                  render: (_, l) => `${String(l.cartons_received)} / ${String(l.cartons_expected)}`,
                },
                { title: t('fields.notPosted'), dataIndex: 'cartons_pending', align: 'right' },
              ]}
            />
            <Popconfirm
              title={t('receive.postConfirm', { count: data.cartons_pending })}
              okText={t('receive.post')}
              cancelText={t('common:cancel', { defaultValue: 'Cancel' })}
              disabled={!data.cartons_pending}
              onConfirm={() =>
                post.mutate(id, {
                  onSuccess: (receipts) => {
                    void message.success(t('receive.posted', { receipts: receipts.map((r) => r.receipt_number).join(', ') }));
                    void shipment.refetch();
                  },
                  onError: (error) => void message.error(errorText(error)),
                })
              }
            >
              <Button type="primary" size="large" block className={styles.bigButton} disabled={!data.cartons_pending} loading={post.isPending} data-testid="post-receipts">
                {t('receive.post')}
              </Button>
            </Popconfirm>
          </>
        ) : null}
      </Card>
    </Space>
  );
}

function PutAway() {
  const { t } = useTranslation('warehouse');
  const errorText = useErrorText();
  const [location, setLocation] = useState<Location | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const scanner = useScanner((result) => t('putaway.moved', { location: result.carton.location_code }));

  const scanLocation = async (code: string) => {
    setProblem(null);
    try {
      const found = await fetchLocationByCode(code);
      if (found.count === 1 && found.results[0]) {
        setLocation(found.results[0]);
        scanFeedback(true);
      } else {
        setProblem(t(found.count ? 'putaway.ambiguous' : 'putaway.unknownLocation', { code }));
        scanFeedback(false);
      }
    } catch (error) {
      setProblem(errorText(error));
      scanFeedback(false);
    }
  };

  if (!location) {
    return (
      <Space orientation="vertical" className={styles.full}>
        <ScanField label={t('putaway.scanLocation')} onScan={(code) => void scanLocation(code)} testId="location-field" />
        {problem ? <Typography.Text type="danger">{problem}</Typography.Text> : null}
      </Space>
    );
  }
  return (
    <Space orientation="vertical" className={styles.full}>
      <Typography.Title level={4} data-testid="putaway-location">
        {t('putaway.into', { location: `${location.warehouse_code}/${location.code}` })}
      </Typography.Title>
      <ScanField
        label={t('putaway.scanCarton')}
        busy={scanner.busy}
        pending={scanner.pending}
        onScan={(code) => void scanner.scan(code, (scanId) => moveScan({ code, scan_id: scanId, location: location.id }))}
      />
      <Button onClick={() => setLocation(null)}>{t('putaway.otherLocation')}</Button>
      <ScanLog entries={scanner.log} />
    </Space>
  );
}
