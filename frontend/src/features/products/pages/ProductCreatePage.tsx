import { useNavigate } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { ProductForm } from '../components/ProductForm';

export default function ProductCreatePage() {
  const navigate = useNavigate();
  return (
    <PageContainer>
      <ProductForm onSaved={(product) => void navigate(`/product/${product.id}`)} onCancel={() => void navigate('/product')} />
    </PageContainer>
  );
}
