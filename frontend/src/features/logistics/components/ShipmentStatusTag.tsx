import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ShipmentStatus } from '../api/types';

const COLORS: Record<ShipmentStatus, string> = {
  planned: 'default',
  in_transit: 'processing',
  arrived: 'warning',
  received: 'success',
};

export function ShipmentStatusTag({ status }: { status: ShipmentStatus }) {
  const { t } = useTranslation('logistics');
  return <Tag color={COLORS[status]}>{t(`status.${status}`)}</Tag>;
}
