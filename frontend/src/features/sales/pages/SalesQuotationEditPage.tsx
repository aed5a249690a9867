import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { DetailPage } from '@/shared/components/DetailPage';
import { paths } from '@/shared/routing/paths';
import { useQuotation, type QuotationDetail } from '../api/sales';
import { QuotationForm } from '../components/QuotationForm';
import { useMayPermission } from '../hooks/usePermission';

/** /sales/quotations/{id}/edit: a draft or sent quotation in the new quotation's form; any other status
 * gets a notice and the way back (the server refuses the save too). */
export default function SalesQuotationEditPage() {
  const { t } = useTranslation('sales');
  const { id } = useParams();
  const quotationId = Number(id);
  const query = useQuotation(quotationId, { frozen: true });
  return (
    <DetailPage query={query} invalid={!Number.isFinite(quotationId)} notFound={t('quotation.notFound')} backTo={paths.salesQuotations()} backLabel={t('detail.backToList')}>
      {(quotation) => <EditView quotation={quotation} />}
    </DetailPage>
  );
}

function EditView({ quotation }: { quotation: QuotationDetail }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const mayChange = useMayPermission('salesorders.change_salesquotation');
  const back = <Button onClick={() => void navigate(paths.salesQuotation(quotation.id))}>{t('quotation.back')}</Button>;
  return (
    <PageContainer title={t('quotation.editTitle', { number: quotation.quotation_number })}>
      {!mayChange ? (
        <Alert type="warning" showIcon title={t('quotation.noPermission')} action={back} data-testid="edit-refused" />
      ) : !quotation.allowed_actions.includes('edit') ? (
        <Alert
          type="info"
          showIcon
          title={t('quotation.notEditable', { number: quotation.quotation_number, status: t(`quotation.status.${quotation.status}`) })}
          action={back}
          data-testid="edit-refused"
        />
      ) : (
        <QuotationForm quotation={quotation} />
      )}
    </PageContainer>
  );
}
