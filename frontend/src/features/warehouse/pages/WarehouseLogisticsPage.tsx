import { FilePdfOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Form, Input, InputNumber, Modal, Popconfirm, Select } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { useFormatters } from '@/shared/utils/format';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useSession } from '@/shared/session/useSession';
import { saveBlob } from '@/shared/utils/saveFile';
import {
  DISPATCHES_URL,
  carriersQueryOptions,
  deleteDispatch,
  dispatchKeys,
  dispatchableShipmentsQueryOptions,
  downloadLoadingList,
  saveDispatch,
  type Dispatch,
} from '../api/warehouse';
import styles from '../components/warehouse.module.css';


interface Values {
  sales_shipment: number;
  carrier?: number | null;
  pickup_date: Dayjs;
  vehicle?: string;
  tracking_number?: string;
  packages?: number;
  weight_kg?: number;
  note?: string;
}

/** /warehouse/logistics: outbound pickups by carrier and date (vehicle, tracking number, packages,
 *  weight) and the day's loading list as a PDF. */
export default function WarehouseLogisticsPage() {
  const { t } = useTranslation('warehouse');
  const phone = usePhone();
  const f = useFormatters();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const tenant = useSession((s) => s.tenantId);
  const [params, setParams] = useSearchParams();
  const day = params.get('pickup_date') ?? dayjs().format('YYYY-MM-DD');
  const [editing, setEditing] = useState<Dispatch | 'new' | null>(null);
  const [printing, setPrinting] = useState(false);
  const carriers = useQuery(carriersQueryOptions(tenant));
  const carrierOptions = (carriers.data?.results ?? []).map((c) => ({ value: c.id, label: c.name }));

  const printList = async () => {
    setPrinting(true);
    try {
      const file = await downloadLoadingList(day);
      saveBlob(file.blob, file.fileName ?? `loading-list-${day}.pdf`);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setPrinting(false);
    }
  };

  // On a phone (below 576px): the date with the shipment, customer, carrier, vehicle, weight, cartons and
  // tracking number under it, and the packages.
  const columns: ServerColumn<Dispatch>[] = [
    {
      title: t('logistics.date'),
      dataIndex: 'pickup_date',
      sorter: true,
      render: (v: string, d) => (
        <>
          {f.date(v)}
          <PhoneLine secondary={false}>
            {d.shipment_number} · {d.customer_name}
          </PhoneLine>
          <PhoneLine>{[d.carrier_name, d.vehicle].filter(Boolean).join(' · ') || '—'}</PhoneLine>
          <PhoneLine>
            {t('logistics.weight')} {d.weight_kg ?? '—'} · {t('logistics.cartons')} {d.cartons_count}
          </PhoneLine>
          {d.tracking_number ? <PhoneLine>{d.tracking_number}</PhoneLine> : null}
        </>
      ),
    },
    { title: t('logistics.carrier'), key: 'carrier__name', sorter: true, hidden: phone, render: (_, d) => d.carrier_name || '—' },
    { title: t('logistics.vehicle'), dataIndex: 'vehicle', hidden: phone, render: (v: string) => v || '—' },
    { title: t('logistics.shipment'), dataIndex: 'shipment_number', hidden: phone },
    { title: t('logistics.customer'), dataIndex: 'customer_name', hidden: phone },
    { title: t('logistics.tracking'), dataIndex: 'tracking_number', hidden: phone, render: (v: string) => v || '—' },
    {
      title: t('logistics.packages'),
      dataIndex: 'packages',
      sorter: true,
      align: 'right',
    },
    { title: t('logistics.weight'), dataIndex: 'weight_kg', sorter: true, align: 'right', hidden: phone },
    { title: t('logistics.cartons'), dataIndex: 'cartons_count', align: 'right', hidden: phone },
  ];

  return (
    <>
      <ListPage<Dispatch>
        endpoint={DISPATCHES_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ defaultOrdering: 'carrier__name' }}
        searchPlaceholder={t('logistics.searchPlaceholder')}
        exportFileName="dispatches"
        onRowClick={(d) => setEditing(d)}
        filters={(list) => (
          <>
            <DatePicker
              aria-label={t('logistics.date')}
              value={typeof list.filters.pickup_date === 'string' ? dayjs(list.filters.pickup_date) : null}
              onChange={(value: Dayjs | null) => {
                list.setFilter('pickup_date', value ? value.format('YYYY-MM-DD') : null);
              }}
            />
            <Select
              allowClear
              className={styles.filter}
              placeholder={t('logistics.carrier')}
              aria-label={t('logistics.carrier')}
              value={typeof list.filters.carrier === 'string' ? Number(list.filters.carrier) : undefined}
              onChange={(value?: number) => list.setFilter('carrier', value === undefined ? null : String(value))}
              options={carrierOptions}
            />
          </>
        )}
        actions={
          <>
            <Button icon={<FilePdfOutlined />} loading={printing} onClick={() => void printList()} data-testid="loading-list">
              {t('logistics.loadingList')} {f.date(day)}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('logistics.new')}
            </Button>
          </>
        }
      />
      {editing ? (
        <DispatchDialog
          dispatch={editing === 'new' ? null : editing}
          carriers={carrierOptions}
          onClose={() => setEditing(null)}
          onDate={(value) =>
            setParams((current) => {
              const next = new URLSearchParams(current);
              next.set('pickup_date', value);
              return next;
            })
          }
        />
      ) : null}
    </>
  );
}

function DispatchDialog({
  dispatch,
  carriers,
  onClose,
  onDate,
}: {
  dispatch: Dispatch | null;
  carriers: { value: number; label: string }[];
  onClose: () => void;
  onDate: (value: string) => void;
}) {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const tenant = useSession((s) => s.tenantId);
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: dispatchKeys.all });
  const [term, setTerm] = useState('');
  const shipments = useQuery(dispatchableShipmentsQueryOptions(tenant, term));
  const { form, onFinish, submitting, formError } = useApiForm<Values>({
    submit: (v) => {
      const body = {
        sales_shipment: v.sales_shipment,
        carrier: v.carrier ?? null,
        pickup_date: v.pickup_date.format('YYYY-MM-DD'),
        vehicle: v.vehicle ?? '',
        tracking_number: v.tracking_number ?? '',
        packages: v.packages ?? 0,
        weight_kg: String(v.weight_kg ?? 0),
        note: v.note ?? '',
      };
      return saveDispatch(dispatch?.id, body);
    },
    onSuccess: (_result, values) => {
      void message.success(t('logistics.saved'));
      refresh();
      onDate(values.pickup_date.format('YYYY-MM-DD'));
      onClose();
    },
  });
  const remove = async () => {
    if (!dispatch) return;
    try {
      await deleteDispatch(dispatch.id);
      void message.success(t('logistics.deleted'));
      refresh();
      onClose();
    } catch (error) {
      void message.error(errorText(error));
    }
  };
  const shipmentOptions = (shipments.data?.results ?? []).map((s) => ({ value: s.id, label: `${s.shipment_number} · ${s.customer_name}` }));
  if (dispatch && !shipmentOptions.some((o) => o.value === dispatch.sales_shipment)) {
    shipmentOptions.unshift({ value: dispatch.sales_shipment, label: `${dispatch.shipment_number} · ${dispatch.customer_name}` });
  }
  return (
    <Modal
      open
      title={dispatch ? t('logistics.edit') : t('logistics.new')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      footer={(original) => (
        <>
          {dispatch ? (
            <Popconfirm title={t('logistics.deleteConfirm')} onConfirm={() => void remove()}>
              <Button danger>{t('logistics.delete')}</Button>
            </Popconfirm>
          ) : null}
          {original}
        </>
      )}
    >
      {formError ? <Alert type="error" showIcon title={formError} /> : null}
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        initialValues={
          dispatch
            ? { ...dispatch, pickup_date: dayjs(dispatch.pickup_date), weight_kg: Number(dispatch.weight_kg) }
            : { pickup_date: dayjs(), packages: 1 }
        }
      >
        <Form.Item name="sales_shipment" label={t('logistics.shipment')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select
            showSearch={{ filterOption: false, onSearch: setTerm }}
            placeholder={t('logistics.shipmentSearch')}
            options={shipmentOptions}
            disabled={Boolean(dispatch)}
          />
        </Form.Item>
        <Form.Item name="carrier" label={t('logistics.carrier')}>
          <Select allowClear options={carriers} />
        </Form.Item>
        <Form.Item name="pickup_date" label={t('logistics.date')} rules={[{ required: true, message: t('validation.required') }]}>
          <DatePicker className={styles.full} />
        </Form.Item>
        <Form.Item name="vehicle" label={t('logistics.vehicle')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="tracking_number" label={t('logistics.tracking')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="packages" label={t('logistics.packages')}>
          <InputNumber min={0} precision={0} className={styles.full} />
        </Form.Item>
        <Form.Item name="weight_kg" label={t('logistics.weight')}>
          <InputNumber min={0} step={0.5} className={styles.full} />
        </Form.Item>
        <Form.Item name="note" label={t('logistics.note')}>
          <Input maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
