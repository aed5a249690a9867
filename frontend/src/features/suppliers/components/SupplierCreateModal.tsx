import { Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createSupplier } from '../api/suppliers';
import type { Supplier } from '../api/types';
import { emptySupplier, SupplierForm } from './SupplierForm';
import { useConfirmDiscard } from '@/shared/hooks/useUnsavedChangesGuard';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (supplier: Supplier) => void;
}

/** A new supplier in a modal; closing with unsaved input asks first. */
export function SupplierCreateModal({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('suppliers');
  const [dirty, setDirty] = useState(false);
  const confirmDiscard = useConfirmDiscard();
  const close = () =>
    confirmDiscard(dirty, () => {
      setDirty(false);
      onClose();
    });
  return (
    <Modal open={open} title={t('create.title')} onCancel={close} footer={null} width={880} destroyOnHidden>
      <SupplierForm
        initialValues={emptySupplier}
        submitLabel={t('create.submit')}
        onDirtyChange={setDirty}
        onSubmit={async (values) => {
          const supplier = await createSupplier(values);
          setDirty(false);
          onCreated(supplier);
        }}
      />
    </Modal>
  );
}
