import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';

interface Props {
  /** What is deleted, shown in the question (e.g. the order number). */
  itemLabel?: string;
  /** Performs the delete; a rejection is shown as an error message and keeps the item. */
  onConfirm: () => Promise<unknown>;
  /** Custom trigger; defaults to a danger icon button. */
  children?: ReactNode;
  disabled?: boolean;
  /** The note shown after a successful delete (default: a generic "Deleted"); `false` for none, when
   * the caller reports it itself. */
  successMessage?: string | false;
}

/** Asks before deleting, shows the server's error if the delete fails and a short success note if not. */
export function ConfirmDelete({ itemLabel, onConfirm, children, disabled, successMessage }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  return (
    <Popconfirm
      title={t('confirmDelete.title')}
      description={itemLabel ? t('confirmDelete.questionNamed', { name: itemLabel }) : t('confirmDelete.question')}
      okText={t('actions.delete')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ danger: true }}
      disabled={disabled}
      onConfirm={async () => {
        try {
          await onConfirm();
          if (successMessage !== false) void message.success(successMessage ?? t('confirmDelete.done'));
        } catch (error) {
          void message.error(errorText(error));
        }
      }}
    >
      {children ?? <Button danger type="text" icon={<DeleteOutlined />} aria-label={t('actions.delete')} disabled={disabled} />}
    </Popconfirm>
  );
}
