import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { pending: 'processing', sent: 'success', failed: 'error', skipped: 'default' };

export function SyncStatusTag({ status }: { status: string }) {
  const { t } = useTranslation('accounting');
  return <Tag color={COLORS[status] ?? 'default'}>{t(`status.${status}`, { defaultValue: status })}</Tag>;
}
