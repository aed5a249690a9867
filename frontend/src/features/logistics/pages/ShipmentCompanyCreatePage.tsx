import { Card } from 'antd';
import { useNavigate } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { CompanyForm } from '../components/CompanyForm';

/** /purchase/shipment-companies/create */
export default function ShipmentCompanyCreatePage() {
  const navigate = useNavigate();
  return (
    <PageContainer>
      <Card>
        <CompanyForm onCancel={() => void navigate('/purchase/shipment-companies')} />
      </Card>
    </PageContainer>
  );
}
