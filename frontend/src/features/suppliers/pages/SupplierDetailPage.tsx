import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { CommentsPanel } from '@/shared/comments/CommentsPanel';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { supplierQuery, updateSupplier, useDeleteSupplier, useInvalidateSuppliers, useSupplier } from '../api/suppliers';
import { SupplierForm, supplierToValues } from '../components/SupplierForm';
import { useHasPermission } from '@/shared/session/permissions';
import styles from './pages.module.css';
import { paths } from '@/shared/routing/paths';

/** One supplier: its details (edit, delete) and its comments with attachments. */
export default function SupplierDetailPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('suppliers');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'comments' ? 'comments' : 'details';
  const query = useSupplier(id);
  const queryClient = useQueryClient();
  const invalidate = useInvalidateSuppliers();
  const remove = useDeleteSupplier();
  const canChange = useHasPermission('suppliers.change_supplier');
  const canDelete = useHasPermission('suppliers.delete_supplier');
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesGuard(dirty);

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(paths.suppliers())}>
      {t('detail.back')}
    </Button>
  );

  if (query.isError) {
    return (
      <PageContainer extra={back}>
        <Card>
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        </Card>
      </PageContainer>
    );
  }
  const supplier = query.data;
  if (!supplier) {
    return (
      <PageContainer extra={back}>
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      </PageContainer>
    );
  }

  const vendor = supplier.parent_vendor_detail;
  const vendorName = i18n.language === 'zh' && vendor.cname ? vendor.cname : vendor.name;
  const title = (
    <Flex align="center" wrap gap="small">
      <span>
        {supplier.number} · {supplier.name}
      </span>
      <Tag className={styles.headerTags}>{vendorName}</Tag>
      {supplier.is_active ? <Tag color="success">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>}
    </Flex>
  );

  return (
    <PageContainer title={title} extra={back}>
      <Card>
        <Tabs
          className={styles.tabs}
          activeKey={tab}
          onChange={(key) => setSearchParams(key === 'comments' ? { tab: 'comments' } : {}, { replace: true })}
          items={[
            {
              key: 'details',
              label: t('detail.tabs.details'),
              children: (
                <SupplierForm
                  key={supplier.updated_at}
                  initialValues={supplierToValues(supplier)}
                  readOnly={!canChange}
                  submitLabel={t('detail.save')}
                  onDirtyChange={setDirty}
                  onSubmit={async (values) => {
                    const saved = await updateSupplier(supplier.id, values);
                    setDirty(false);
                    queryClient.setQueryData(supplierQuery(id).queryKey, saved);
                    void invalidate();
                    void message.success(t('detail.saved'));
                  }}
                  extraActions={
                    canDelete ? (
                      <ConfirmDelete
                        itemLabel={`${supplier.number} ${supplier.name}`}
                        onConfirm={async () => {
                          await remove.mutateAsync(supplier.id);
                          setDirty(false);
                          await navigate(paths.suppliers());
                        }}
                      >
                        <Button danger icon={<DeleteOutlined />}>
                          {t('detail.delete')}
                        </Button>
                      </ConfirmDelete>
                    ) : null
                  }
                />
              ),
            },
            {
              key: 'comments',
              label: t('detail.tabs.comments'),
              children: <CommentsPanel contentType="supplier" objectId={supplier.id} />,
            },
          ]}
        />
        {!canChange ? (
          <Typography.Text type="secondary">{t('detail.readOnly')}</Typography.Text>
        ) : null}
      </Card>
    </PageContainer>
  );
}
