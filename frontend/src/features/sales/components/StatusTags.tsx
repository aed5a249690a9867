import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrderStatus, PaymentStatus, QuotationStatus, ShipmentStatus } from '../api/sales';

const ORDER_COLORS: Record<OrderStatus, string> = {
  draft: 'default',
  confirmed: 'processing',
  partially_shipped: 'gold',
  shipped: 'cyan',
  partially_invoiced: 'purple',
  invoiced: 'success',
  closed: 'default',
  cancelled: 'error',
};
const QUOTATION_COLORS: Record<QuotationStatus, string> = {
  draft: 'default',
  sent: 'processing',
  accepted: 'success',
  declined: 'error',
  expired: 'warning',
  cancelled: 'default',
};
const SHIPMENT_COLORS: Record<ShipmentStatus, string> = {
  draft: 'default',
  picked: 'gold',
  shipped: 'processing',
  delivered: 'success',
};
const PAYMENT_COLORS: Record<PaymentStatus, string> = {
  draft: 'default',
  open: 'processing',
  partially_paid: 'gold',
  paid: 'success',
  overdue: 'error',
  credited: 'default',
  credit_note: 'purple',
};

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('sales');
  return (
    <Tag color={ORDER_COLORS[status]} data-testid="sales-order-status">
      {t(`status.${status}`)}
    </Tag>
  );
}

export function ShipmentStatusTag({ status }: { status: ShipmentStatus }) {
  const { t } = useTranslation('sales');
  return (
    <Tag color={SHIPMENT_COLORS[status]} data-testid="shipment-status">
      {t(`shipmentStatus.${status}`)}
    </Tag>
  );
}

export function PaymentStatusTag({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation('sales');
  return (
    <Tag color={PAYMENT_COLORS[status]} data-testid="payment-status">
      {t(`paymentStatus.${status}`)}
    </Tag>
  );
}

export function QuotationStatusTag({ status }: { status: QuotationStatus }) {
  const { t } = useTranslation('sales');
  return (
    <Tag color={QUOTATION_COLORS[status]} data-testid="quotation-status">
      {t(`quotation.status.${status}`)}
    </Tag>
  );
}
