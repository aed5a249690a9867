import { useNavigate } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { ProductForm } from '../components/ProductForm';
import { paths } from '@/shared/routing/paths';

export default function ProductCreatePage() {
  const navigate = useNavigate();
  return (
    <PageContainer>
      <ProductForm onSaved={(product) => void navigate(paths.product(product.id))} onCancel={() => void navigate(paths.products())} />
    </PageContainer>
  );
}
