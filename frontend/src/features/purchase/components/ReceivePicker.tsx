import { Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { searchOrders } from '../api/orders';
import { OPEN_ORDERS_KEY } from '../api/endpoints';
import { RECEIVABLE_STATUSES, type OrderOption } from '../api/types';
import { orderOption } from '../lib/options';
import { RemoteSelect } from '@/shared/components/RemoteSelect';
import { paths } from '@/shared/routing/paths';

interface Props {
  open: boolean;
  onClose: () => void;
}

const searchOpenOrders = (search: string, signal?: AbortSignal) => searchOrders(search, RECEIVABLE_STATUSES.join(','), signal);

/** "Receive": pick an open purchase order, then receive against it on its page (the receive dialog). */
export function ReceivePicker({ open, onClose }: Props) {
  const { t } = useTranslation('purchase');
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<OrderOption | undefined>(undefined);

  return (
    <Modal
      open={open}
      title={t('receivePicker.title')}
      okText={t('receivePicker.continue')}
      cancelText={t('form.cancel')}
      okButtonProps={{ disabled: !chosen, 'data-testid': 'receive-picker-continue' }}
      onOk={() => {
        if (chosen) void navigate(paths.purchaseOrderReceive(chosen.order_number));
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('receivePicker.hint')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('receipts.order')} required>
          <RemoteSelect<OrderOption>
            queryKey={OPEN_ORDERS_KEY}
            search={searchOpenOrders}
            toOption={orderOption}
            placeholder={t('receivePicker.placeholder')}
            value={chosen?.id}
            onChange={(_value, record) => setChosen(record)}
            autoFocus
            data-testid="receive-picker-order"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
