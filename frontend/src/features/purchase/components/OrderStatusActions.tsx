import { CheckCircleOutlined, CheckOutlined, FilePdfOutlined, MailOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { useSeesPrices } from '@/shared/session/prices';
import { openOrderPdf, useOrderAction } from '../api/orders';
import type { OrderAction } from '../api/endpoints';
import type { OrderStatus, PurchaseOrder } from '../api/types';

/** The act that moves an order to a status (the server's `allowed_transitions` name the statuses). */
const ACTS: Partial<Record<OrderStatus, OrderAction>> = {
  confirmed: 'confirm',
  sent: 'send',
  closed: 'close',
  cancelled: 'cancel',
};
const ICONS: Record<OrderAction, ReactNode> = {
  confirm: <CheckOutlined />,
  send: <MailOutlined />,
  close: <CheckCircleOutlined />,
  cancel: <StopOutlined />,
};
/** Acts that cannot be undone ask first. */
const ASK: ReadonlySet<OrderAction> = new Set(['close', 'cancel']);

/** Confirm, Send by e-mail, Close and Cancel, as the order allows; closing and cancelling ask first. */
export function OrderStatusActions({ order, mayChange }: { order: PurchaseOrder; mayChange: boolean }) {
  const { t } = useTranslation('purchase');
  const seesPrices = useSeesPrices();
  const { modal, message } = App.useApp();
  const errorText = useErrorText();
  const action = useOrderAction(order.id);

  const run = async (act: OrderAction) => {
    try {
      const done = await action.mutateAsync(act);
      void message.success(t(`actions.done.${act}`, { orderNumber: order.order_number, status: t(`status.${done.status}`) }));
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const ask = (act: OrderAction) => {
    if (!ASK.has(act)) {
      void run(act);
      return;
    }
    modal.confirm({
      title: t(`actions.confirmTitle.${act}`, { orderNumber: order.order_number }),
      content: t(`actions.confirmText.${act}`),
      okText: t(`actions.${act}`),
      cancelText: t('actions.keep'),
      okButtonProps: { danger: act === 'cancel' },
      onOk: () => run(act),
    });
  };

  const acts = mayChange
    ? order.allowed_transitions.map((status) => ACTS[status]).filter((act): act is OrderAction => act !== undefined)
    : [];
  return (
    <>
      {acts.map((act) => (
        <Button
          key={act}
          icon={ICONS[act]}
          danger={act === 'cancel'}
          type={act === 'confirm' || act === 'send' ? 'primary' : 'default'}
          loading={action.isPending && action.variables === act}
          onClick={() => ask(act)}
          data-testid={`order-${act}`}
        >
          {t(`actions.${act}`)}
        </Button>
      ))}
      {/* The PDF shows prices: only for those who may see them (the server answers 403 to the others). */}
      {seesPrices ? (
        <Button icon={<FilePdfOutlined />} onClick={() => void openOrderPdf(order.id).catch((error: unknown) => void message.error(errorText(error)))} data-testid="order-pdf">
          {t('actions.pdf')}
        </Button>
      ) : null}
    </>
  );
}
