import { Card } from 'antd';
import { useNavigate } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { CompanyForm } from '../components/CompanyForm';
import { paths } from '@/shared/routing/paths';

/** /purchase/shipment-companies/create */
export default function ShipmentCompanyCreatePage() {
  const navigate = useNavigate();
  return (
    <PageContainer>
      <Card>
        <CompanyForm onCancel={() => void navigate(paths.shipmentCompanies())} />
      </Card>
    </PageContainer>
  );
}
