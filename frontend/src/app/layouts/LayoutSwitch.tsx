import { lazy, Suspense } from 'react';
import { layoutFor } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { FullPageSpinner } from '../routing/FullPageSpinner';

// Each user needs one layout: load only that one.
const DefaultLayout = lazy(async () => ({ default: (await import('./DefaultLayout')).DefaultLayout }));
const WarehouseLayout = lazy(async () => ({ default: (await import('./WarehouseLayout')).WarehouseLayout }));
const SupplierLayout = lazy(async () => ({ default: (await import('./SupplierLayout')).SupplierLayout }));

/** docs/specification.md section 2 "Layout selection": by the kind of user; default while user info is not loaded. */
export function LayoutSwitch() {
  const layout = useSession((s) => layoutFor(s.userInfo));
  return (
    <Suspense fallback={<FullPageSpinner />}>
      {layout === 'warehouse' ? <WarehouseLayout /> : layout === 'supplier' ? <SupplierLayout /> : <DefaultLayout />}
    </Suspense>
  );
}
