import { InboxOutlined } from '@ant-design/icons';
import { Button, DatePicker, Select, Tag, Typography } from 'antd';
import dayjs from '@/shared/utils/dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { ORDERS_URL, RECEIPTS_URL, SUPPLIERS_URL } from '../api/endpoints';
import { fetchOrder, fetchSupplier, searchOrders, searchSuppliers } from '../api/orders';
import { useWarehouses } from '../api/receipts';
import type { OrderOption, Receipt, SupplierOption } from '../api/types';
import { ReceivePicker } from '../components/ReceivePicker';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { useMayPermission } from '@/shared/session/permissions';
import { PURCHASE_PERMS } from '../permissions';
import { useFormatters } from '@/shared/utils/format';
import { idFilter, orderOption, supplierOption } from '../lib/options';
import styles from '../components/purchase.module.css';
import { paths } from '@/shared/routing/paths';

const DATE = 'YYYY-MM-DD';
/** The filters of this list, bound to the URL (and sent as they are to the receipts endpoint). */
const FILTER_KEYS = ['supplier', 'warehouse', 'purchase_order', 'receipt_date_from', 'receipt_date_to'] as const;

const searchAllOrders = (search: string, signal?: AbortSignal) => searchOrders(search, undefined, signal);

function dateFilter(value: string | string[] | undefined) {
  return typeof value === 'string' && dayjs(value, DATE, true).isValid() ? dayjs(value, DATE) : null;
}

function ReceiptFilters({ list }: { list: UseListParams }) {
  const { t } = useTranslation('purchase');
  const warehouses = useWarehouses(true, true);
  const from = dateFilter(list.filters.receipt_date_from);
  const to = dateFilter(list.filters.receipt_date_to);
  return (
    <>
      <RemoteSelect<SupplierOption>
        queryKey={SUPPLIERS_URL}
        search={searchSuppliers}
        fetchOne={fetchSupplier}
        toOption={supplierOption}
        allowClear
        placeholder={t('fields.supplier')}
        aria-label={t('fields.supplier')}
        value={idFilter(list.filters.supplier)}
        onChange={(value) => list.setFilter('supplier', value === undefined ? null : String(value))}
        className={styles.filter}
        data-testid="receipts-supplier-filter"
      />
      <Select<number>
        allowClear
        placeholder={t('receipts.warehouse')}
        aria-label={t('receipts.warehouse')}
        loading={warehouses.isLoading}
        value={idFilter(list.filters.warehouse)}
        onChange={(value?: number) => list.setFilter('warehouse', value === undefined ? null : String(value))}
        options={(warehouses.data?.results ?? []).map((w) => ({ value: w.id, label: `${w.code} · ${w.name}` }))}
        className={styles.filter}
        data-testid="receipts-warehouse-filter"
      />
      <RemoteSelect<OrderOption>
        queryKey={ORDERS_URL}
        search={searchAllOrders}
        fetchOne={fetchOrder}
        toOption={orderOption}
        allowClear
        placeholder={t('receipts.order')}
        aria-label={t('receipts.order')}
        value={idFilter(list.filters.purchase_order)}
        onChange={(value) => list.setFilter('purchase_order', value === undefined ? null : String(value))}
        className={styles.filter}
        data-testid="receipts-order-filter"
      />
      <DatePicker.RangePicker
        className={styles.range}
        format={DATE}
        allowEmpty={[true, true]}
        placeholder={[t('receipts.dateFrom'), t('receipts.dateTo')]}
        value={from || to ? [from, to] : null}
        onChange={(range) =>
          list.setFilters({
            receipt_date_from: range?.[0] ? range[0].format(DATE) : null,
            receipt_date_to: range?.[1] ? range[1].format(DATE) : null,
          })
        }
        data-testid="receipts-date-filter"
      />
    </>
  );
}

/** /purchase/receipts: every goods receipt, newest first, filtered by supplier, warehouse, order and date. */
export default function PurchaseReceiptsPage() {
  const { t } = useTranslation('purchase');
  const navigate = useNavigate();
  const f = useFormatters();
  const mayReceive = useMayPermission(PURCHASE_PERMS.receive);
  const [picking, setPicking] = useState(false);
  const phone = usePhone();
  // On a phone (below 576px): the number with its supplier and order, and the date.
  const columns: ServerColumn<Receipt>[] = [
    {
      title: t('receipts.receipt_number'),
      dataIndex: 'receipt_number',
      sorter: true,
      render: (value: string, r) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          <PhoneLine>{r.supplier.name}</PhoneLine>
          <PhoneLine>{r.purchase_order_number}</PhoneLine>
        </>
      ),
    },
    { title: t('receipts.receipt_date'), dataIndex: 'receipt_date', sorter: true, render: (v: string) => f.date(v) },
    {
      title: t('receipts.order'),
      key: 'purchase_order__order_number',
      sorter: true,
      hidden: phone,
      render: (_, r) => (
        <Link to={paths.purchaseOrder(r.purchase_order_number)} onClick={(event) => event.stopPropagation()}>
          {r.purchase_order_number}
        </Link>
      ),
    },
    { title: t('fields.supplier'), key: 'supplier', hidden: phone, render: (_, r) => `${r.supplier.number} · ${r.supplier.name}` },
    { title: t('receipts.warehouse'), key: 'warehouse', hidden: phone, render: (_, r) => r.warehouse_detail.code },
    { title: t('receipts.lines'), dataIndex: 'lines_count', align: 'right', hidden: phone },
    { title: t('receipts.total_qty'), dataIndex: 'total_qty', align: 'right', hidden: phone, render: (v: string) => f.qty(v) },
    { title: t('receipts.created_by'), dataIndex: 'created_by_name', hidden: phone },
    {
      title: t('receipts.note'),
      dataIndex: 'note',
      hidden: phone,
      render: (value: string, r) => (
        <>
          {r.over_receipt ? <Tag color="warning">{t('receipts.over_receipt')}</Tag> : null}
          {value}
        </>
      ),
    },
  ];
  return (
    <>
      <ListPage<Receipt>
        endpoint={RECEIPTS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: '-receipt_date', filterKeys: FILTER_KEYS }}
        searchPlaceholder={t('receipts.searchPlaceholder')}
        exportFileName="purchase-receipts"
        onRowClick={(receipt) => void navigate(paths.purchaseReceipt(receipt.id))}
        filters={(list) => <ReceiptFilters list={list} />}
        actions={
          mayReceive ? (
            <Button type="primary" icon={<InboxOutlined />} onClick={() => setPicking(true)} data-testid="receipts-receive">
              {t('receivePicker.button')}
            </Button>
          ) : null
        }
      />
      {picking ? <ReceivePicker open onClose={() => setPicking(false)} /> : null}
    </>
  );
}
