import { FeaturePlaceholder } from '@/shared/components/FeaturePlaceholder';

/** Not built yet: shows the area's empty state under the route's title. The email-scenarios work replaces this module. */
export default function EmailScenariosPage() {
  return <FeaturePlaceholder />;
}
