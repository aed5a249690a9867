import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  draft: 'default',
  active: 'success',
  inactive: 'warning',
  expired: 'error',
  voided: 'default',
};

/** A delivery's (or label's) status as a coloured tag. */
export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('eudr');
  return (
    <Tag color={COLORS[status] ?? 'default'} data-testid={`status-${status}`}>
      {t(`status.${status}`, { defaultValue: status })}
    </Tag>
  );
}
