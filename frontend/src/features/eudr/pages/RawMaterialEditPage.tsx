import { Button, Card, Result, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useRawMaterial } from '../api/rawMaterials';
import { DeliveryNotFound, isNotFound } from '../components/DeliveryNotFound';
import { DeliveryWizard } from '../components/wizard/DeliveryWizard';
import { stepFromParam } from '../components/wizard/wizardModel';
import { useMayPermission } from '@/shared/session/permissions';
import { CHANGE_DELIVERY } from '../permissions';
import { useEudrPortal } from '../hooks/usePortal';

/**
 * Editing a submitted delivery with the wizard's steps (`?step=basic|materials|review` opens on one):
 * fix what the DDS checks find missing, replace or remove documents, renew certificates. A draft goes
 * back to the creation wizard.
 */
export default function RawMaterialEditPage() {
  const { t } = useTranslation('eudr');
  const { id } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const portal = useEudrPortal();
  const mayChange = useMayPermission(CHANGE_DELIVERY);
  const material = useRawMaterial(id);
  // The form starts from the delivery as it was loaded; later refetches do not reset what is typed.
  const [initialStep] = useState(() => stepFromParam(query.get('step')));
  const [loaded, setLoaded] = useState(material.data ?? null);
  if (material.data && !loaded) setLoaded(material.data);

  useEffect(() => {
    if (loaded?.status === 'draft') void navigate(portal.newPath(loaded.id), { replace: true });
  }, [loaded, navigate, portal]);

  if (!mayChange) {
    return (
      <PageContainer>
        <Result
          status="403"
          title={t('edit.notAllowed')}
          extra={
            <Button type="primary" onClick={() => void navigate(portal.detailPath(id ?? ''))}>
              {t('edit.backToDelivery')}
            </Button>
          }
          data-testid="edit-not-allowed"
        />
      </PageContainer>
    );
  }
  if (material.isError && !loaded && isNotFound(material.error)) return <DeliveryNotFound />;
  if (material.isError && !loaded) {
    return (
      <PageContainer>
        <ErrorState error={material.error} onRetry={() => void material.refetch()} />
      </PageContainer>
    );
  }
  if (!loaded || loaded.status === 'draft') {
    return (
      <PageContainer>
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      </PageContainer>
    );
  }
  return <DeliveryWizard key={loaded.id} mode="edit" initial={loaded} initialStep={initialStep} />;
}
