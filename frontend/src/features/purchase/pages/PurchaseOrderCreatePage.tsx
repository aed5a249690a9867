import { PageContainer } from '@/shared/components/PageContainer';
import { OrderForm } from '../components/OrderForm';

/** /purchase/orders/new */
export default function PurchaseOrderCreatePage() {
  return (
    <PageContainer>
      <OrderForm />
    </PageContainer>
  );
}
