import { RawMaterialList } from '../components/RawMaterialList';

/** /purchase/eudr/raw-materials: every parent vendor's deliveries. */
export default function RawMaterialsPage() {
  return <RawMaterialList />;
}
