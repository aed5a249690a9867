import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '@/api/errors';
import { PageContainer } from '@/shared/components/PageContainer';
import { useEudrPortal } from '../hooks/usePortal';

/** True for the 404 a delivery answers when it does not exist for this user (another vendor's, too). */
export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** A delivery that is not there for this user: said plainly, with the way back to the list. */
export function DeliveryNotFound() {
  const { t } = useTranslation('eudr');
  const navigate = useNavigate();
  const portal = useEudrPortal();
  return (
    <PageContainer>
      <Result
        status="404"
        title={t('detail.notFound')}
        subTitle={t('detail.notFoundHint')}
        extra={
          <Button type="primary" onClick={() => void navigate(portal.listPath)}>
            {t('actions.backToList')}
          </Button>
        }
        data-testid="delivery-not-found"
      />
    </PageContainer>
  );
}
