import { FeaturePlaceholder } from '@/shared/components/FeaturePlaceholder';

/** Not built yet: shows the area's empty state under the route's title. The reports work replaces this module. */
export default function ReportTestPage() {
  return <FeaturePlaceholder />;
}
