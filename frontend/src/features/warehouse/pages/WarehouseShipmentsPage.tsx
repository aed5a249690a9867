import { FeaturePlaceholder } from '@/shared/components/FeaturePlaceholder';

/** Not built yet: shows the area's empty state under the route's title. The warehouse work replaces this module. */
export default function WarehouseShipmentsPage() {
  return <FeaturePlaceholder />;
}
