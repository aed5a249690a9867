import { App, Alert, Button, Col, DatePicker, Descriptions, Divider, Drawer, Flex, Form, Input, Row, Select, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from '@/shared/utils/dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CartonList, useMayViewCartons } from '@/shared/cartons/CartonList';
import { CommentsPanel } from '@/shared/comments/CommentsPanel';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { useErrorText } from '@/shared/errors/errorText';
import { useApiForm } from '@/shared/hooks/useApiForm';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { useFormatters } from '@/shared/utils/format';
import { useCompanies, useDeleteShipment, useSaveShipment, useTransitionShipment } from '../api/logistics';
import type { Shipment, ShipmentInput, ShipmentStatus } from '../api/types';
import { useMayPermission } from '@/shared/session/permissions';
import { LOGISTICS_PERMS } from '../permissions';
import { PlacingStatementCard } from '@/shared/placing/PlacingStatementCard';
import { check } from './check';
import { OrderMultiSelect } from './OrderMultiSelect';
import { ShipmentStatusTag } from './ShipmentStatusTag';
import { containerProblem, isUnlocode, normalizeContainer } from './validators';
import styles from './logistics.module.css';
import { paths } from '@/shared/routing/paths';

interface Props {
  open: boolean;
  /** The shipment shown; absent to create one. */
  shipment?: Shipment;
  readOnly?: boolean;
  onClose: () => void;
}

interface Values {
  container_number: string;
  seal_number?: string;
  shipment_company?: number | null;
  vessel?: string;
  voyage?: string;
  port_of_loading?: string;
  port_of_discharge?: string;
  etd?: Dayjs | null;
  eta?: Dayjs | null;
  note?: string;
  purchase_orders?: number[];
}

const DATE = 'YYYY-MM-DD';

function toValues(shipment: Shipment | undefined): Values {
  if (!shipment) return { container_number: '', purchase_orders: [] };
  return {
    container_number: shipment.container_number,
    seal_number: shipment.seal_number,
    shipment_company: shipment.shipment_company,
    vessel: shipment.vessel,
    voyage: shipment.voyage,
    port_of_loading: shipment.port_of_loading,
    port_of_discharge: shipment.port_of_discharge,
    etd: shipment.etd ? dayjs(shipment.etd) : null,
    eta: shipment.eta ? dayjs(shipment.eta) : null,
    note: shipment.note,
    purchase_orders: shipment.purchase_orders,
  };
}

function toInput(values: Values): ShipmentInput {
  return {
    container_number: normalizeContainer(values.container_number),
    seal_number: values.seal_number ?? '',
    shipment_company: values.shipment_company ?? null,
    vessel: values.vessel ?? '',
    voyage: values.voyage ?? '',
    port_of_loading: (values.port_of_loading ?? '').toUpperCase(),
    port_of_discharge: (values.port_of_discharge ?? '').toUpperCase(),
    etd: values.etd ? values.etd.format(DATE) : null,
    eta: values.eta ? values.eta.format(DATE) : null,
    note: values.note ?? '',
    purchase_orders: values.purchase_orders ?? [],
  };
}

/** A shipment: its details, status steps, comments; and the form to create or change it. */
export function ShipmentDrawer({ open, shipment, readOnly = false, onClose }: Props) {
  const { t } = useTranslation('logistics');
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const mobile = useIsMobileMenu();
  const f = useFormatters();
  const mayChange = useMayPermission(LOGISTICS_PERMS.changeShipment) && !readOnly;
  const mayDelete = useMayPermission(LOGISTICS_PERMS.deleteShipment) && !readOnly;
  const mayViewCartons = useMayViewCartons();
  const mayViewStatements = useMayPermission('eudr.view_rawmaterialdelivery');
  const mayFileStatements = useMayPermission('eudr.change_rawmaterialdelivery');
  const creating = shipment === undefined;
  const [editing, setEditing] = useState(creating);
  const companies = useCompanies(open);
  const save = useSaveShipment(shipment?.id);
  const transition = useTransitionShipment(shipment?.id ?? 0);
  const remove = useDeleteShipment();
  const initial = useMemo(() => toValues(shipment), [shipment]);

  const { form, onFinish, submitting, formError } = useApiForm<Values, Shipment>({
    submit: (values) => save.mutateAsync(toInput(values)),
    onSuccess: (saved) => {
      void message.success(t('form.saved', { container: saved.container_number }));
      if (creating) onClose();
      else setEditing(false);
    },
  });


  const step = (status: ShipmentStatus) => {
    if (!shipment) return;
    modal.confirm({
      title: t('transition.confirm', { container: shipment.container_number, status: t(`status.${status}`) }),
      content: status === 'received' ? t('transition.receivedFinal') : undefined,
      okText: t(`transition.to.${status}`),
      cancelText: t('form.cancel'),
      onOk: async () => {
        try {
          await transition.mutateAsync(status);
          void message.success(t('transition.done', { status: t(`status.${status}`) }));
        } catch (error) {
          void message.error(errorText(error));
        }
      },
    });
  };

  const form_ = (
    <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={onFinish} data-testid="shipment-form">
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="container_number"
            label={t('fields.container_number')}
            normalize={(value: string) => value.toUpperCase()}
            rules={[
              { required: true, message: t('form.required') },
              {
                validator: (_: unknown, value: string | undefined) => {
                  const problem = value ? containerProblem(value) : null;
                  return check(problem ? t(`form.container.${problem}`) : null);
                },
              },
            ]}
          >
            <Input placeholder={t('form.containerPlaceholder')} maxLength={20} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="seal_number" label={t('fields.seal_number')} rules={[{ max: 40 }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="shipment_company" label={t('fields.shipment_company')}>
            <Select
              allowClear
              loading={companies.isLoading}
              options={(companies.data?.results ?? []).map((c) => ({ value: c.id, label: c.name }))}
            />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="vessel" label={t('fields.vessel')} rules={[{ max: 120 }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="voyage" label={t('fields.voyage')} rules={[{ max: 40 }]}>
            <Input />
          </Form.Item>
        </Col>
        {(['port_of_loading', 'port_of_discharge'] as const).map((name) => (
          <Col xs={12} key={name}>
            <Form.Item
              name={name}
              label={t(`fields.${name}`)}
              normalize={(value: string) => value.toUpperCase()}
              rules={[
                {
                  validator: (_: unknown, value: string | undefined) =>
                    check(value && !isUnlocode(value) ? t('form.unlocode') : null),
                },
              ]}
            >
              <Input maxLength={5} placeholder={t(`form.placeholder.${name}`)} />
            </Form.Item>
          </Col>
        ))}
        <Col xs={12}>
          <Form.Item name="etd" label={t('fields.etd')}>
            <DatePicker format={DATE} className={styles.full} />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item
            name="eta"
            label={t('fields.eta')}
            dependencies={['etd']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_: unknown, value: Dayjs | null | undefined) => {
                  const etd = getFieldValue('etd') as Dayjs | null | undefined;
                  return check(value && etd && value.isBefore(etd, 'day') ? t('form.etaBeforeEtd') : null);
                },
              }),
            ]}
          >
            <DatePicker format={DATE} className={styles.full} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="purchase_orders" label={t('fields.purchase_orders')}>
            <OrderMultiSelect known={shipment?.purchase_orders_detail} placeholder={t('form.ordersPlaceholder')} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="note" label={t('fields.note')} rules={[{ max: 500 }]}>
            <Input.TextArea autoSize={{ minRows: 2 }} />
          </Form.Item>
        </Col>
      </Row>
      {formError ? <Alert type="error" showIcon title={formError} className={styles.section} /> : null}
      <Flex justify="flex-end" gap="small">
        <Button onClick={() => (creating ? onClose() : setEditing(false))}>{t('form.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="shipment-save">
          {t('form.save')}
        </Button>
      </Flex>
    </Form>
  );

  const details = shipment ? (
    <>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'status', label: t('fields.status'), children: <ShipmentStatusTag status={shipment.status} /> },
          {
            key: 'container',
            label: t('fields.container_number'),
            children: shipment.tracking_url ? (
              <a href={shipment.tracking_url} target="_blank" rel="noreferrer noopener">
                {shipment.container_number}
              </a>
            ) : (
              shipment.container_number
            ),
          },
          { key: 'seal', label: t('fields.seal_number'), children: shipment.seal_number || '—' },
          { key: 'carrier', label: t('fields.shipment_company'), children: shipment.shipment_company_detail?.name ?? '—' },
          {
            key: 'vessel',
            label: t('fields.vessel_voyage'),
            children: [shipment.vessel, shipment.voyage].filter(Boolean).join(' / ') || '—',
          },
          {
            key: 'route',
            label: t('fields.route'),
            children: [shipment.port_of_loading, shipment.port_of_discharge].filter(Boolean).join(' → ') || '—',
          },
          { key: 'etd', label: t('fields.etd'), children: f.date(shipment.etd) },
          { key: 'eta', label: t('fields.eta'), children: f.date(shipment.eta) },
          { key: 'cartons', label: t('fields.cartons_count'), children: shipment.cartons_count },
          {
            key: 'orders',
            label: t('fields.purchase_orders'),
            children: shipment.purchase_orders_detail.length ? (
              <Space wrap size={[4, 4]}>
                {shipment.purchase_orders_detail.map((o) => (
                  <Tag key={o.id}>
                    <Link to={paths.purchaseOrder(o.order_number)}>{o.order_number}</Link>
                  </Tag>
                ))}
              </Space>
            ) : (
              '—'
            ),
          },
          { key: 'note', label: t('fields.note'), children: shipment.note || '—' },
        ]}
      />
      {mayChange && shipment.allowed_transitions.length > 0 ? (
        <Flex gap="small" wrap className={styles.section}>
          {shipment.allowed_transitions.map((status) => (
            <Button key={status} onClick={() => step(status)} data-testid={`shipment-transition-${status}`}>
              {t(`transition.to.${status}`)}
            </Button>
          ))}
        </Flex>
      ) : null}
      {mayViewStatements ? (
        <PlacingStatementCard shipments={[shipment.id]} mayChange={mayFileStatements && !readOnly} />
      ) : null}
      {mayViewCartons ? (
        <>
          <Divider />
          <Typography.Title level={5}>{t('cartons.title', { count: shipment.cartons_count })}</Typography.Title>
          <CartonList filter={{ container: shipment.container_number }} hide={['container']} data-testid="shipment-cartons" />
        </>
      ) : null}
      <Divider />
      <Typography.Title level={5}>{t('comments')}</Typography.Title>
      <CommentsPanel contentType="shipmentinfo" objectId={shipment.id} />
    </>
  ) : null;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      title={creating ? t('form.createTitle') : shipment.container_number}
      extra={
        !creating && !editing ? (
          <Space>
            {mayChange && shipment.status !== 'received' ? (
              <Button
                onClick={() => {
                  form.setFieldsValue(initial);
                  setEditing(true);
                }}
                data-testid="shipment-edit"
              >
                {t('form.edit')}
              </Button>
            ) : null}
            {mayDelete && shipment.status === 'planned' ? (
              <ConfirmDelete
                itemLabel={shipment.container_number}
                onConfirm={async () => {
                  await remove.mutateAsync(shipment.id);
                  onClose();
                }}
              />
            ) : null}
          </Space>
        ) : null
      }
    >
      {editing ? form_ : details}
    </Drawer>
  );
}
