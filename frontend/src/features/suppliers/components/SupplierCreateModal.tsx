import { Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createSupplier } from '../api/suppliers';
import type { Supplier } from '../api/types';
import { emptySupplier, SupplierForm } from './SupplierForm';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (supplier: Supplier) => void;
}

/** A new supplier in a modal; closing with unsaved input asks first. */
export function SupplierCreateModal({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('suppliers');
  const [dirty, setDirty] = useState(false);
  const close = () => {
    if (!dirty) {
      onClose();
      return;
    }
    Modal.confirm({
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
