import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MatchStatus, SupplierInvoiceStatus } from '../api/types';

const MATCH_COLORS: Record<MatchStatus, string> = {
  matched: 'success',
  quantity_mismatch: 'warning',
  price_mismatch: 'warning',
  not_received: 'error',
  unmatched: 'default',
};

const STATUS_COLORS: Record<SupplierInvoiceStatus, string> = {
  draft: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** The 3-way match of a supplier invoice or one of its lines. */
export function MatchStatusTag({ status }: { status: MatchStatus }) {
  const { t } = useTranslation('purchase');
  return (
    <Tag color={MATCH_COLORS[status]} data-testid={`match-${status}`}>
      {t(`supplierInvoices.match.${status}`)}
    </Tag>
  );
}

export function SupplierInvoiceStatusTag({ status }: { status: SupplierInvoiceStatus }) {
  const { t } = useTranslation('purchase');
  return <Tag color={STATUS_COLORS[status]}>{t(`supplierInvoices.status.${status}`)}</Tag>;
}
