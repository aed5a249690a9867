import { useMemo } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { userTypeOf } from '@/shared/session/userType';
import { useSession } from '@/shared/session/useSession';
import { isSupplierPortalPath, paths } from '@/shared/routing/paths';

export interface OrderPortal {
  /** The supplier's read-only view: in the portal (/supplier/...) or any page opened by a supplier user. */
  supplier: boolean;
  /** The order list to go back to: the portal's or /purchase/orders. */
  listPath: string;
  detailPath: (orderNumber: string) => string;
}

/**
 * Where the order pages live for this user. The portal keeps the form that made the parent vendor
 * known (route parameter or `pv` query, docs/specification.md section 6); internal users use /purchase/orders.
 */
export function useOrderPortal(): OrderPortal {
  const { pathname } = useLocation();
  const { parentVendorId } = useParams();
  const [query] = useSearchParams();
  const isSupplierUser = useSession((s) => (s.userInfo ? userTypeOf(s.userInfo) === 'supplier' : false));
  const pv = query.get('pv');
  return useMemo(() => {
    const inPortal = isSupplierPortalPath(pathname);
    if (!inPortal && !isSupplierUser) {
      return { supplier: false, listPath: paths.purchaseOrders(), detailPath: paths.purchaseOrder };
    }
    const base = paths.supplierBase('orders', inPortal ? parentVendorId : null);
    const keep = inPortal && !parentVendorId && pv ? `?pv=${encodeURIComponent(pv)}` : '';
    return {
      supplier: true,
      listPath: `${base}${keep}`,
      detailPath: (orderNumber: string) => `${base}/${encodeURIComponent(orderNumber)}${keep}`,
    };
  }, [pathname, parentVendorId, pv, isSupplierUser]);
}
