import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrderStatus } from '../api/types';

const COLORS: Record<OrderStatus, string> = {
  open: 'processing',
  on_hold: 'warning',
  completed: 'success',
  cancelled: 'default',
};

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('purchase');
  return (
    <Tag color={COLORS[status]} data-testid="order-status">
      {t(`status.${status}`)}
    </Tag>
  );
}
