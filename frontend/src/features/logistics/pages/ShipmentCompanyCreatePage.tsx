import { Card } from 'antd';
import { PageContainer } from '@/shared/components/PageContainer';
import { CompanyForm } from '../components/CompanyForm';

/** /purchase/shipment-companies/create */
export default function ShipmentCompanyCreatePage() {
  return (
    <PageContainer>
      <Card>
        <CompanyForm cancelTo="/purchase/shipment-companies" />
      </Card>
    </PageContainer>
  );
}
