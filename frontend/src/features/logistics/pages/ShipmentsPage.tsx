import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { useFormatters } from '@/shared/utils/format';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { SHIPMENTS_URL, useCompanies, useShipment } from '../api/logistics';
import { SHIPMENT_STATUSES, type Shipment } from '../api/types';
import { ShipmentDrawer } from '../components/ShipmentDrawer';
import { ShipmentStatusTag } from '../components/ShipmentStatusTag';
import { useMayPermission } from '@/shared/session/permissions';
import { LOGISTICS_PERMS } from '../permissions';
import styles from '../components/logistics.module.css';

/** /purchase/shipments: inbound containers; a row opens the shipment (details, status, comments). */
export default function ShipmentsPage() {
  const { t } = useTranslation('logistics');
  const mayAdd = useMayPermission(LOGISTICS_PERMS.addShipment);
  const companies = useCompanies();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = useShipment(selectedId);
  const [creating, setCreating] = useState(false);
  const phone = usePhone();
  const f = useFormatters();

  // On a phone (below 576px): the container with its carrier and arrival, and the status.
  const columns: ServerColumn<Shipment>[] = [
    {
      title: t('fields.container_number'),
      dataIndex: 'container_number',
      sorter: true,
      render: (value: string, s) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          {s.tracking_url ? (
            <>
              {' '}
              <a href={s.tracking_url} target="_blank" rel="noreferrer noopener" onClick={(event) => event.stopPropagation()}>
                {t('track')}
              </a>
            </>
          ) : null}
          {s.shipment_company_detail ? <PhoneLine>{s.shipment_company_detail.name}</PhoneLine> : null}
          {s.eta ? <PhoneLine>{`${t('fields.eta')} ${f.date(s.eta)}`}</PhoneLine> : null}
        </>
      ),
    },
    { title: t('fields.shipment_company'), key: 'carrier', hidden: phone, render: (_, s) => s.shipment_company_detail?.name ?? '—' },
    {
      title: t('fields.vessel_voyage'),
      key: 'vessel',
      sorter: true,
      hidden: phone,
      render: (_, s) => [s.vessel, s.voyage].filter(Boolean).join(' / ') || '—',
    },
    {
      title: t('fields.route'),
      key: 'route',
      hidden: phone,
      render: (_, s) => [s.port_of_loading, s.port_of_discharge].filter(Boolean).join(' → ') || '—',
    },
    { title: t('fields.etd'), dataIndex: 'etd', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    { title: t('fields.eta'), dataIndex: 'eta', sorter: true, hidden: phone, render: (v: string | null) => f.date(v) },
    { title: t('fields.status'), dataIndex: 'status', sorter: true, render: (_, s) => <ShipmentStatusTag status={s.status} /> },
    {
      title: t('fields.purchase_orders'),
      key: 'orders',
      hidden: phone,
      render: (_, s) => (
        <Space wrap size={[4, 4]}>
          {s.purchase_orders_detail.map((o) => (
            <Tag key={o.id}>{o.order_number}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('fields.cartons_count'), dataIndex: 'cartons_count', align: 'right', hidden: phone },
  ];

  return (
    <>
      <ListPage<Shipment>
        endpoint={SHIPMENTS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: '-created_at' }}
        searchPlaceholder={t('searchPlaceholder')}
        exportFileName="shipments"
        onRowClick={(shipment) => setSelectedId(shipment.id)}
        filters={(list) => (
          <>
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('fields.status')}
              aria-label={t('fields.status')}
              value={typeof list.filters.status === 'string' ? list.filters.status : undefined}
              onChange={(value?: string) => list.setFilter('status', value ?? null)}
              options={SHIPMENT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
            />
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('fields.shipment_company')}
              aria-label={t('fields.shipment_company')}
              value={typeof list.filters.shipment_company === 'string' ? Number(list.filters.shipment_company) : undefined}
              onChange={(value?: number) => list.setFilter('shipment_company', value === undefined ? null : String(value))}
              options={(companies.data?.results ?? []).map((c) => ({ value: c.id, label: c.name }))}
            />
          </>
        )}
        actions={
          mayAdd ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="new-shipment">
              {t('new')}
            </Button>
          ) : null
        }
      />
      {creating ? <ShipmentDrawer open onClose={() => setCreating(false)} /> : null}
      {selected.data ? (
        <ShipmentDrawer key={selected.data.id} open={selectedId !== null} shipment={selected.data} onClose={() => setSelectedId(null)} />
      ) : null}
    </>
  );
}
