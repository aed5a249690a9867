import { RawMaterialList } from '../components/RawMaterialList';

/** /supplier/raw-materials: the supplier's own parent vendor's deliveries (the server scopes them). */
export default function SupplierRawMaterialsPage() {
  return <RawMaterialList />;
}
