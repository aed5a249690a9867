import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema';
import { SyncStatusTag } from './SyncStatusTag';

type State = components['schemas']['DocumentAccounting'];

/** Where a posted invoice stands in the accounting system: sent or not, its id there, its payment status. */
export function InvoiceAccountingState({ state }: { state: State }) {
  const { t } = useTranslation('accounting');
  return (
    <span data-testid="invoice-accounting">
      <SyncStatusTag status={state.sync_status} />
      {state.external_id ? <Typography.Text code>{state.external_id}</Typography.Text> : null}
      {state.external_status ? ` ${t(`paymentStatus.${state.external_status}`, { defaultValue: state.external_status })}` : null}
      {state.error ? (
        <Typography.Text type={state.sync_status === 'failed' ? 'danger' : 'secondary'} style={{ display: 'block' }}>
          {state.error}
        </Typography.Text>
      ) : null}
    </span>
  );
}
