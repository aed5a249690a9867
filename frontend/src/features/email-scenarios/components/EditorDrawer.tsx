import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { useInvalidateEmail } from '../api/notifications';

interface Props {
  title: ReactNode;
  /** Unsaved changes: closing asks first, leaving the page warns. */
  dirty: boolean;
  setDirty: (dirty: boolean) => void;
  onClose: () => void;
  /** A saved record: a delete button (with confirmation) that deletes it and closes the drawer. */
  deletion?: { itemLabel: string; remove: () => Promise<unknown> };
  /** The footer's dismiss button: "cancel" (nothing saved yet) or "close" (saved on the way). */
  dismiss: 'cancel' | 'close';
  saving: boolean;
  onSave: () => void;
  saveTestId: string;
  children: ReactNode;
}

/** The drawer of the scenario and template editors: wide (full width on a phone), delete in the header,
 * dismiss and save in the footer, and a question before unsaved changes are thrown away. */
export function EditorDrawer({ title, dirty, setDirty, onClose, deletion, dismiss, saving, onSave, saveTestId, children }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const narrow = useMediaQuery('(max-width: 900px)');
  const invalidate = useInvalidateEmail();
  useUnsavedChangesGuard(dirty);

  const close = () => {
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

  return (
    <Drawer
      open
      onClose={close}
      title={title}
      size={narrow ? '100%' : 1040}
      destroyOnHidden
      mask={{ closable: false }}
      extra={
        deletion ? (
          <ConfirmDelete
            itemLabel={deletion.itemLabel}
            onConfirm={async () => {
              await deletion.remove();
              setDirty(false);
              await invalidate();
              onClose();
            }}
          >
            <Button danger icon={<DeleteOutlined />}>
              {t('actions.delete')}
            </Button>
          </ConfirmDelete>
        ) : null
      }
      footer={
        <Flex justify="end" gap="small">
          <Button onClick={close}>{dismiss === 'cancel' ? t('actions.cancel') : t('actions.close')}</Button>
          <Button type="primary" loading={saving} onClick={onSave} data-testid={saveTestId}>
            {t('actions.save')}
          </Button>
        </Flex>
      }
    >
      {children}
    </Drawer>
  );
}
