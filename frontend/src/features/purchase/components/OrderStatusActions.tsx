import { CheckCircleOutlined, PauseCircleOutlined, PlayCircleOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { useTransitionOrder } from '../api/orders';
import type { OrderStatus, PurchaseOrder } from '../api/types';

const ICONS: Record<OrderStatus, ReactNode> = {
  on_hold: <PauseCircleOutlined />,
  open: <PlayCircleOutlined />,
  completed: <CheckCircleOutlined />,
  cancelled: <StopOutlined />,
};

/** One button per status the order may move to (the server's `allowed_transitions`), each confirmed. */
export function OrderStatusActions({ order }: { order: PurchaseOrder }) {
  const { t } = useTranslation('purchase');
  const { modal, message } = App.useApp();
  const errorText = useErrorText();
  const transition = useTransitionOrder(order.id);

  const ask = (status: OrderStatus) => {
    modal.confirm({
      title: t(`actions.confirmTitle.${status}`, { orderNumber: order.order_number }),
      content: t(`actions.confirmText.${status}`),
      okText: t(`actions.${status}`),
      cancelText: t('actions.keep'),
      okButtonProps: { danger: status === 'cancelled' },
      onOk: async () => {
        try {
          await transition.mutateAsync(status);
          void message.success(t('actions.done', { status: t(`status.${status}`) }));
        } catch (error) {
          void message.error(errorText(error));
        }
      },
    });
  };

  return (
    <>
      {order.allowed_transitions.map((status) => (
        <Button
          key={status}
          icon={ICONS[status]}
          danger={status === 'cancelled'}
          type={status === 'completed' ? 'primary' : 'default'}
          ghost={status === 'completed'}
          loading={transition.isPending && transition.variables === status}
          onClick={() => ask(status)}
          data-testid={`transition-${status}`}
        >
          {t(`actions.${status}`)}
        </Button>
      ))}
    </>
  );
}
