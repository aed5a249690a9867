import { PageContainer } from '@/shared/components/PageContainer';
import { SalesOrderForm } from '../components/SalesOrderForm';

/** /sales/sales-order-detail: the new-order page (docs/specification.md's name). Customer search, lines with product
 * search (2 characters), prices and totals as you type; save as a draft or save and confirm. */
export default function SalesOrderCreatePage() {
  return (
    <PageContainer>
      <SalesOrderForm />
    </PageContainer>
  );
}
