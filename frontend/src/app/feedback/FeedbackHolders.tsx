import { message, Modal, notification } from 'antd';
import { useEffect } from 'react';
import type { FeedbackApi } from './FeedbackProvider';

/** Ant Design's message, notification and modal holders (what its App renders), loaded on first use. */
export function FeedbackHolders({ onReady }: { onReady: (api: FeedbackApi) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => {
    onReady({ message: messageApi, notification: notificationApi, modal: modalApi });
  }, [onReady, messageApi, notificationApi, modalApi]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
