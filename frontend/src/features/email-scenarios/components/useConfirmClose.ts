import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/** Closing a drawer with unsaved changes asks first. */
export function useConfirmClose(dirty: boolean, setDirty: (dirty: boolean) => void, onClose: () => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return () => {
    if (!dirty) {
      onClose();
      return;
    }
    modal.confirm({
      title: t('common:unsaved.title'),
      content: t('common:unsaved.description'),
      okText: t('common:unsaved.leave'),
      cancelText: t('common:unsaved.stay'),
      okButtonProps: { danger: true },
      onOk: () => {
        setDirty(false);
        onClose();
      },
    });
  };
}
