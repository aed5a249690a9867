import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { ProductForm } from '../components/ProductForm';
import { ProductLoader } from '../components/ProductLoader';
import { paths } from '@/shared/routing/paths';

export default function ProductEditPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  return (
    <ProductLoader id={id}>
      {(product) => (
        <PageContainer>
          <ProductForm
            product={product}
            onSaved={(saved) => void navigate(paths.product(saved.id))}
            onCancel={() => void navigate(paths.product(product.id))}
          />
        </PageContainer>
      )}
    </ProductLoader>
  );
}
