import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Drawer, Select, Space, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import type { UseListParams } from '@/shared/hooks/useListParams';
import {
  MOVES_URL,
  STOCK_TOTALS_URL,
  STOCK_URL,
  type ProductTotal,
  type StockMove,
  type StockRow,
  useProductGroups,
  useWarehouses,
} from '../api/warehouse';
import { CartonPanel } from '../components/CartonPanel';
import { CountDialog, ReorderPointDialog, TransferDialog } from '../components/StockDialogs';
import { useSession } from '@/shared/session/useSession';
import styles from '../components/warehouse.module.css';
import { formatDateTime, formatStockQty } from '@/shared/utils/format';

const TABS = ['stock', 'totals', 'moves'] as const;
type Tab = (typeof TABS)[number];

/** /warehouse/inventory: stock per product and location (on hand, reserved, available), totals per
 *  product, the move ledger; transfers and counts; `?carton=CODE` opens a carton and its history. */
export default function InventoryPage() {
  const { t, i18n } = useTranslation('warehouse');
  // Quantities by the product's unit of measure (pieces as whole numbers), docs/accessibility.md.
  const units = (value: string, unit?: string | null) => formatStockQty(value, unit, i18n.language);
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'stock';
  const carton = params.get('carton');
  const [dialog, setDialog] = useState<'transfer' | 'count' | null>(null);
  const warehouses = useWarehouses();
  const groups = useProductGroups();
  const [reorder, setReorder] = useState<ProductTotal | null>(null);
  const maySetReorder = useSession((s) => s.userInfo?.permissions?.includes('inventory.add_reorderpoint') ?? false);

  const setParam = (key: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value === null) next.delete(key);
      else next.set(key, value);
      if (key === 'tab') {
        for (const k of ['page', 'ordering', 'kind', 'document_type']) next.delete(k);
      }
      return next;
    });

  const locationOptions = (warehouses.data?.results ?? []).flatMap((w) =>
    w.locations.map((l) => ({ value: String(l.id), label: `${w.code}/${l.code}` })),
  );
  const stringFilter = (list: UseListParams, key: string) => (typeof list.filters[key] === 'string' ? list.filters[key] : undefined);

  const stockFilters = (list: UseListParams) => (
    <>
      <Select
        allowClear
        className={styles.filter}
        placeholder={t('fields.warehouse')}
        aria-label={t('fields.warehouse')}
        value={stringFilter(list, 'warehouse')}
        onChange={(value?: string) => list.setFilter('warehouse', value ?? null)}
        options={(warehouses.data?.results ?? []).map((w) => ({ value: String(w.id), label: `${w.code} ${w.name}` }))}
      />
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        className={styles.filter}
        placeholder={t('fields.location')}
        aria-label={t('fields.location')}
        value={stringFilter(list, 'location')}
        onChange={(value?: string) => list.setFilter('location', value ?? null)}
        options={locationOptions}
      />
      <Select
        allowClear
        className={styles.filter}
        placeholder={t('fields.productGroup')}
        aria-label={t('fields.productGroup')}
        value={stringFilter(list, 'product_group')}
        onChange={(value?: string) => list.setFilter('product_group', value ?? null)}
        options={(groups.data?.results ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
      />
      <Checkbox
        checked={list.filters.below_reorder_point === 'true'}
        onChange={(event) => list.setFilter('below_reorder_point', event.target.checked ? 'true' : null)}
      >
        {t('fields.belowReorderPoint')}
      </Checkbox>
    </>
  );

  const qty = (value: string, row?: object) => <span className="tabular-nums">{units(value, row && 'product_unit' in row ? String(row.product_unit) : undefined)}</span>;
  const phone = usePhone();
  // On a phone (below 576px): the article with its name (and location), on hand and reserved under it,
  // and what is available (per product: available under it too, and the reorder point); a move is its
  // time with kind, article, locations and document under it, and its quantity.
  const article = (r: { article_number: string; product_name: string }) =>
    phone ? (
      <>
        <Typography.Text strong>{r.article_number}</Typography.Text>
        <PhoneLine>{r.product_name}</PhoneLine>
      </>
    ) : (
      <>
        <Typography.Text strong>{r.article_number}</Typography.Text> <Typography.Text type="secondary">{r.product_name}</Typography.Text>
      </>
    );
  const onHandReserved = (r: { on_hand: string; reserved: string; product_unit?: string | null }) => (
    <PhoneLine>
      {t('fields.onHand')} {units(r.on_hand, r.product_unit)} · {t('fields.reserved')} {units(r.reserved, r.product_unit)}
    </PhoneLine>
  );
  const stockColumns: ServerColumn<StockRow>[] = [
    {
      title: t('fields.article'),
      key: 'product__article_number',
      dataIndex: 'article_number',
      sorter: true,
      render: (_, r) => (
        <>
          {article(r)}
          <PhoneLine>
            {r.warehouse_code}/{r.location_code}
          </PhoneLine>
          {onHandReserved(r)}
        </>
      ),
    },
    { title: t('fields.location'), key: 'location__code', sorter: true, hidden: phone, render: (_, r) => `${r.warehouse_code}/${r.location_code}` },
    { title: t('fields.onHand'), dataIndex: 'on_hand', sorter: true, align: 'right', hidden: phone, render: qty },
    { title: t('fields.reserved'), dataIndex: 'reserved', sorter: true, align: 'right', hidden: phone, render: qty },
    {
      title: t('fields.available'),
      dataIndex: 'available',
      sorter: true,
      align: 'right',
      render: (v: string, r) => (
        <>
          {qty(v, r)}
          {r.below_reorder_point ? <Tag color="warning">{t('fields.low')}</Tag> : null}
        </>
      ),
    },
  ];
  const totalColumns: ServerColumn<ProductTotal>[] = [
    {
      title: t('fields.article'),
      key: 'article',
      render: (_, r) => (
        <>
          {article(r)}
          {onHandReserved(r)}
          <PhoneLine>
            {t('fields.available')} {units(r.available, r.product_unit)}
          </PhoneLine>
        </>
      ),
    },
    { title: t('fields.locations'), dataIndex: 'locations', align: 'right', hidden: phone },
    { title: t('fields.onHand'), dataIndex: 'on_hand', align: 'right', hidden: phone, render: qty },
    { title: t('fields.reserved'), dataIndex: 'reserved', align: 'right', hidden: phone, render: qty },
    { title: t('fields.available'), dataIndex: 'available', align: 'right', hidden: phone, render: qty },
    {
      title: t('fields.reorderPoint'),
      dataIndex: 'reorder_point',
      align: 'right',
      render: (v: string | null, r) => (
        <Space size={4}>
          <span className="tabular-nums" data-testid={`reorder-${r.article_number}`}>
            {v ?? '—'}
          </span>
          {maySetReorder ? (
            <Button
              size="small"
              type="text"
              icon={<EditOutlined />}
              aria-label={t('reorder.edit', { article: r.article_number })}
              onClick={() => setReorder(r)}
              data-testid={`edit-reorder-${r.article_number}`}
            />
          ) : null}
        </Space>
      ),
    },
  ];
  const moveColumns: ServerColumn<StockMove>[] = [
    {
      title: t('fields.movedAt'),
      dataIndex: 'moved_at',
      sorter: true,
      render: (v: string, m) => (
        <>
          {formatDateTime(v, i18n.language)}
          <PhoneLine secondary={false}>
            <Tag>{t(`moveKind.${m.kind}`, { defaultValue: m.kind })}</Tag>
            <Typography.Text strong>{m.article_number}</Typography.Text>
          </PhoneLine>
          <PhoneLine>
            {m.from_location_code || '—'} → {m.to_location_code || '—'}
          </PhoneLine>
          <PhoneLine>{`${t(`documentType.${m.document_type}`, { defaultValue: m.document_type })} ${m.reference}`}</PhoneLine>
        </>
      ),
    },
    { title: t('fields.kind'), dataIndex: 'kind', hidden: phone, render: (v: string) => <Tag>{t(`moveKind.${v}`, { defaultValue: v })}</Tag> },
    { title: t('fields.article'), dataIndex: 'article_number', hidden: phone },
    {
      title: t('fields.quantity'),
      dataIndex: 'quantity',
      sorter: true,
      align: 'right',
      render: qty,
    },
    { title: t('fields.from'), dataIndex: 'from_location_code', hidden: phone, render: (v: string) => v || '—' },
    { title: t('fields.to'), dataIndex: 'to_location_code', hidden: phone, render: (v: string) => v || '—' },
    { title: t('fields.document'), key: 'document', hidden: phone, render: (_, m) => `${t(`documentType.${m.document_type}`, { defaultValue: m.document_type })} ${m.reference}` },
    { title: t('fields.reason'), dataIndex: 'reason', hidden: phone, render: (v: string) => v || '—' },
    { title: t('fields.user'), dataIndex: 'created_by_name', hidden: phone, render: (v: string) => v || '—' },
  ];

  return (
    <PageContainer
      extra={
        <>
          <Button onClick={() => setDialog('transfer')} data-testid="open-transfer">
            {t('transfer.open')}
          </Button>
          <Button onClick={() => setDialog('count')} data-testid="open-count">
            {t('count.open')}
          </Button>
        </>
      }
    >
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParam('tab', key === 'stock' ? null : key)}
          destroyOnHidden
          items={[
            {
              key: 'stock',
              label: t('tabs.stock'),
              children: (
                <ServerTable<StockRow>
                  endpoint={STOCK_URL}
                  rowKey="id"
                  columns={stockColumns}
                  filters={stockFilters}
                  exportable={false}
                  searchPlaceholder={t('stock.searchPlaceholder')}
                />
              ),
            },
            {
              key: 'totals',
              label: t('tabs.totals'),
              children: (
                <ServerTable<ProductTotal>
                  endpoint={STOCK_TOTALS_URL}
                  rowKey="product"
                  columns={totalColumns}
                  filters={stockFilters}
                  exportable={false}
                  searchPlaceholder={t('stock.searchPlaceholder')}
                />
              ),
            },
            {
              key: 'moves',
              label: t('tabs.moves'),
              children: (
                <ServerTable<StockMove>
                  endpoint={MOVES_URL}
                  rowKey="id"
                  columns={moveColumns}
                  exportable={false}
                  searchPlaceholder={t('moves.searchPlaceholder')}
                  filters={(list) => (
                    <Select
                      allowClear
                      className={styles.filter}
                      placeholder={t('fields.kind')}
                      aria-label={t('fields.kind')}
                      value={stringFilter(list, 'kind')}
                      onChange={(value?: string) => list.setFilter('kind', value ?? null)}
                      options={['receipt', 'issue', 'transfer', 'adjustment'].map((value) => ({ value, label: t(`moveKind.${value}`) }))}
                    />
                  )}
                />
              ),
            },
          ]}
        />
      </Card>
      <TransferDialog open={dialog === 'transfer'} onClose={() => setDialog(null)} locations={locationOptions} />
      <CountDialog open={dialog === 'count'} onClose={() => setDialog(null)} locations={locationOptions} />
      <ReorderPointDialog
        product={reorder ? { id: reorder.product, article_number: reorder.article_number, reorder_point: reorder.reorder_point } : null}
        onClose={() => setReorder(null)}
      />
      <Drawer
        open={Boolean(carton)}
        onClose={() => setParam('carton', null)}
        title={carton ? t('carton.title', { code: carton }) : ''}
        size={520}
        destroyOnHidden
      >
        {carton ? <CartonPanel code={carton} /> : null}
      </Drawer>
    </PageContainer>
  );
}
