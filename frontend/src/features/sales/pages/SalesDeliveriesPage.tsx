import { Badge, Button, Card, Flex, Segmented, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs from '@/shared/utils/dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { useFormatters } from '@/shared/utils/format';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { usePhone } from '@/shared/hooks/usePhone';
import { ServerTable, type ServerColumn } from '@/shared/components/ServerTable';
import { useSession } from '@/shared/session/useSession';
import {
  CUSTOMERS_URL,
  DELIVERIES_URL,
  fetchCustomer,
  deliveryCalendarQueryOptions,
  searchCustomers,
  useWarehouses,
  type CustomerOption,
  type Delivery,
} from '../api/sales';
import { paths } from '@/shared/routing/paths';

const customerOption = (c: CustomerOption) => ({ value: c.id, label: `${c.number} ${c.name}`, record: c });
const idOf = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

/** /sales/deliveries: what is due to ship by date (order lines by confirmed, else requested date, with
 * what unshipped shipments plan), as a list or a week/month calendar; late lines stand out. Filters
 * (customer, status, view, date) live in the URL. */
export default function SalesDeliveriesPage() {
  const { t } = useTranslation('sales');
  const [params, setParams] = useSearchParams();
  const view = params.get('view') ?? 'list';
  const setParam = (key: string, value: string | null) =>
    setParams((p) => {
      if (value === null || value === '') p.delete(key);
      else p.set(key, value);
      return p;
    });

  return (
    <PageContainer
      extra={
        <Segmented
          aria-label={t('deliveries.list')}
          value={view}
          onChange={(v) => setParam('view', String(v) === 'list' ? null : String(v))}
          options={[
            { value: 'list', label: t('deliveries.list') },
            { value: 'week', label: t('deliveries.week') },
            { value: 'month', label: t('deliveries.month') },
          ]}
        />
      }
    >
      <Card>{view === 'list' ? <DeliveryList /> : <DeliveryCalendar mode={view === 'month' ? 'month' : 'week'} setParam={setParam} />}</Card>
    </PageContainer>
  );
}

function StatusSelect({ value, onChange }: { value?: string; onChange: (v: string | null) => void }) {
  const { t } = useTranslation('sales');
  return (
    <Select
      allowClear
      style={{ minWidth: 140 }}
      aria-label={t('list.statusFilter')}
      placeholder={t('list.statusFilter')}
      value={value}
      onChange={(v?: string) => onChange(v ?? null)}
      options={['late', 'planned', 'open'].map((v) => ({ value: v, label: t(`scheduleStatus.${v}`) }))}
    />
  );
}

function WarehouseSelect({ value, onChange }: { value?: string; onChange: (v: string | null) => void }) {
  const { t } = useTranslation('sales');
  const query = useWarehouses();
  return (
    <Select
      allowClear
      style={{ minWidth: 160 }}
      loading={query.isLoading}
      aria-label={t('list.warehouseFilter')}
      placeholder={t('list.warehouseFilter')}
      value={value ? Number(value) : undefined}
      onChange={(v?: number) => onChange(v === undefined ? null : String(v))}
      options={(query.data?.results ?? []).map((w) => ({ value: w.id, label: `${w.code} ${w.name}` }))}
      data-testid="warehouse-filter"
    />
  );
}

function CustomerSelect({ value, onChange }: { value?: number; onChange: (v: string | null) => void }) {
  const { t } = useTranslation('sales');
  return (
    <RemoteSelect<CustomerOption>
      queryKey={CUSTOMERS_URL}
      search={searchCustomers}
      fetchOne={fetchCustomer}
      toOption={customerOption}
      allowClear
      style={{ minWidth: 220 }}
      aria-label={t('list.customerFilter')}
      placeholder={t('list.customerFilter')}
      value={value}
      onChange={(v) => onChange(v === undefined ? null : String(v))}
    />
  );
}

function DeliveryList() {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const phone = usePhone();
  // On a phone (below 576px): the due date with the order, customer and product under it, and the
  // status with the open and planned quantities and the warehouse under it.
  const columns: ServerColumn<Delivery>[] = [
    {
      title: t('fields.due'),
      dataIndex: 'due_date',
      sorter: true,
      render: (v: string, d) => (
        <>
          <Typography.Text type={d.is_late ? 'danger' : undefined} strong={d.is_late}>
            {f.date(v)}
          </Typography.Text>
          <PhoneLine>
            {d.order_number} · {d.customer_name}
          </PhoneLine>
          <PhoneLine>
            {d.product_number} {d.product_name}
          </PhoneLine>
        </>
      ),
    },
    { title: t('fields.order_number'), key: 'order__order_number', sorter: true, hidden: phone, render: (_, d) => d.order_number },
    { title: t('fields.customer'), key: 'order__customer__name', sorter: true, hidden: phone, render: (_, d) => d.customer_name },
    { title: t('fields.product'), key: 'p', hidden: phone, render: (_, d) => `${d.product_number} ${d.product_name}` },
    { title: t('fields.open_quantity'), dataIndex: 'open_quantity', align: 'right', hidden: phone, render: (v: string) => f.qty(v) },
    { title: t('fields.planned_quantity'), dataIndex: 'planned_quantity', align: 'right', hidden: phone, render: (v: string) => f.qty(v) },
    { title: t('fields.warehouse'), dataIndex: 'warehouse_code', hidden: phone },
    {
      title: t('fields.status'),
      dataIndex: 'schedule_status',
      render: (v: string, d) => (
        <>
          <Badge status={v === 'late' ? 'error' : v === 'planned' ? 'success' : 'processing'} text={t(`scheduleStatus.${v}`)} />
          <PhoneLine>
            {t('fields.open_quantity')}: {f.qty(d.open_quantity)}
          </PhoneLine>
          <PhoneLine>
            {t('fields.planned_quantity')}: {f.qty(d.planned_quantity)}
          </PhoneLine>
          {d.warehouse_code ? <PhoneLine>{d.warehouse_code}</PhoneLine> : null}
        </>
      ),
    },
  ];
  return (
    <ServerTable<Delivery>
      endpoint={DELIVERIES_URL}
      rowKey="id"
      columns={columns}
      listOptions={{ defaultOrdering: 'due_date', filterKeys: ['customer', 'status', 'warehouse'] }}
      searchPlaceholder={t('list.searchDeliveries')}
      onRowClick={(d) => void navigate(paths.salesDelivery(d.id))}
      filters={(params) => (
        <Flex gap="small" wrap>
          <CustomerSelect
            value={typeof params.filters.customer === 'string' ? idOf(params.filters.customer) : undefined}
            onChange={(v) => params.setFilter('customer', v)}
          />
          <StatusSelect value={typeof params.filters.status === 'string' ? params.filters.status : undefined} onChange={(v) => params.setFilter('status', v)} />
          <WarehouseSelect
            value={typeof params.filters.warehouse === 'string' ? params.filters.warehouse : undefined}
            onChange={(v) => params.setFilter('warehouse', v)}
          />
        </Flex>
      )}
    />
  );
}

/** Wide enough for seven days a row (Ant Design's `lg`). */
const CALENDAR_WIDE_QUERY = '(min-width: 992px)';

/** Monday to Sunday, short, in the user's language. */
function weekdayNames(language: string): string[] {
  const format = new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-GB', { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

function weekdayOf(day: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-GB', { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

function DeliveryCalendar({ mode, setParam }: { mode: 'week' | 'month'; setParam: (k: string, v: string | null) => void }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const f = useFormatters();
  const tenant = useSession((s) => s.tenantId);
  const [params] = useSearchParams();
  const anchor = dayjs(params.get('date') ?? undefined);
  const base = anchor.isValid() ? anchor : dayjs();
  const start = mode === 'week' ? base.subtract((base.day() + 6) % 7, 'day') : base.startOf('month');
  const end = mode === 'week' ? start.add(6, 'day') : base.endOf('month');
  const customer = params.get('customer');
  const status = params.get('status');
  const warehouse = params.get('warehouse');
  const query = useQuery(deliveryCalendarQueryOptions(tenant, start.format('YYYY-MM-DD'), end.format('YYYY-MM-DD'), { customer, status, warehouse }));
  const days: dayjs.Dayjs[] = [];
  for (let d = start; !d.isAfter(end, 'day'); d = d.add(1, 'day')) days.push(d);
  const byDay = new Map<string, Delivery[]>();
  for (const item of query.data?.results ?? []) byDay.set(item.due_date, [...(byDay.get(item.due_date) ?? []), item]);
  const step = (n: number) => setParam('date', (mode === 'week' ? start.add(7 * n, 'day') : start.add(n, 'month')).format('YYYY-MM-DD'));
  // Weeks run Monday to Sunday, seven days a row on a wide screen; a month's first day sits under its
  // weekday (blank cells before it). A narrower screen lists the days one under another.
  const wide = useMediaQuery(CALENDAR_WIDE_QUERY);
  const leading = (start.day() + 6) % 7;
  const weekdays = weekdayNames(f.language);
  const dayTitle = (key: string) => `${weekdayOf(key, f.language)} ${f.date(key)}`;

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <Button onClick={() => step(-1)}>{t('deliveries.previous')}</Button>
        <Button onClick={() => setParam('date', null)}>{t('deliveries.today')}</Button>
        <Button onClick={() => step(1)}>{t('deliveries.next')}</Button>
        <Typography.Text strong>
          {f.date(start.format('YYYY-MM-DD'))} – {f.date(end.format('YYYY-MM-DD'))}
        </Typography.Text>
        <CustomerSelect value={idOf(customer)} onChange={(v) => setParam('customer', v)} />
        <StatusSelect value={status ?? undefined} onChange={(v) => setParam('status', v)} />
        <WarehouseSelect value={warehouse ?? undefined} onChange={(v) => setParam('warehouse', v)} />
      </Flex>
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      <div
        data-testid="delivery-calendar"
        style={{ display: 'grid', gridTemplateColumns: wide ? 'repeat(7, minmax(0, 1fr))' : 'minmax(0, 1fr)', gap: 8 }}
      >
        {wide
          ? weekdays.map((name) => (
              <Typography.Text key={name} type="secondary" strong aria-hidden="true" style={{ textAlign: 'center' }}>
                {name}
              </Typography.Text>
            ))
          : null}
        {wide ? Array.from({ length: leading }, (_, i) => <div key={`before-${String(i)}`} aria-hidden="true" />) : null}
        {days.map((day) => {
          const key = day.format('YYYY-MM-DD');
          const items = byDay.get(key) ?? [];
          return (
            <Card key={key} size="small" data-testid="calendar-day" data-day={key} title={dayTitle(key)} loading={query.isLoading}>
              {items.length === 0 ? (
                <Typography.Text type="secondary">{t('deliveries.nothingDue')}</Typography.Text>
              ) : (
                items.map((d) => (
                  <Button
                    key={d.id}
                    type="link"
                    danger={d.is_late}
                    size="small"
                    style={{ display: 'block', padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
                    onClick={() => void navigate(paths.salesDelivery(d.id))}
                  >
                    {d.order_number} · {d.customer_name} · {d.product_number} × {f.qty(d.open_quantity)}
                  </Button>
                ))
              )}
            </Card>
          );
        })}
      </div>
    </Flex>
  );
}
