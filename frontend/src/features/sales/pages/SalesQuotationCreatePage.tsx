import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { QuotationForm } from '../components/QuotationForm';

/** /sales/quotations/create: a new quotation (saved as a draft). */
export default function SalesQuotationCreatePage() {
  const { t } = useTranslation('sales');
  return (
    <PageContainer title={t('quotation.new')}>
      <QuotationForm />
    </PageContainer>
  );
}
