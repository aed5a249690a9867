import { Card, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useRawMaterial } from '../api/rawMaterials';
import { DeliveryWizard } from '../components/wizard/DeliveryWizard';
import { useEudrPortal } from '../hooks/usePortal';

/**
 * The creation wizard (docs/specification.md section 2): basic info, material details, review and create. "Save
 * draft" keeps the work on the server as a delivery in status draft; `?draft=<id>` resumes it on the
 * first step that still needs something.
 */
export default function RawMaterialWizardPage() {
  const [query] = useSearchParams();
  const draftParam = query.get('draft');
  const navigate = useNavigate();
  const portal = useEudrPortal();
  const draft = useRawMaterial(draftParam ?? undefined);
  // The form is keyed by the draft it started from: saving a new draft only adds ?draft= to the URL.
  const [startedFrom] = useState(draftParam);

  useEffect(() => {
    if (draft.data && draft.data.status !== 'draft') void navigate(portal.detailPath(draft.data.id), { replace: true });
  }, [draft.data, navigate, portal]);

  if (startedFrom && draft.isError) {
    return (
      <PageContainer>
        <ErrorState error={draft.error} onRetry={() => void draft.refetch()} />
      </PageContainer>
    );
  }
  if (startedFrom && (!draft.data || draft.data.status !== 'draft')) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  return <DeliveryWizard mode="create" initial={startedFrom ? (draft.data ?? null) : null} />;
}
