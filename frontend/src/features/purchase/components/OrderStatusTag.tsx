import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrderStatus } from '../api/types';

const COLORS: Record<OrderStatus, string> = {
  draft: 'default',
  confirmed: 'blue',
  sent: 'processing',
  partly_received: 'warning',
  received: 'success',
  closed: 'green',
  cancelled: 'red',
};

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('purchase');
  return (
    <Tag color={COLORS[status]} data-testid="order-status">
      {t(`status.${status}`)}
    </Tag>
  );
}
