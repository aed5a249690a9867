import { useMemo } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { parentVendorIdOf } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { isSupplierPortalPath, paths } from '@/shared/routing/paths';

export interface EudrPortal {
  /** True in the supplier portal (/supplier/...), false on the internal purchase pages. */
  supplier: boolean;
  /** The list path, e.g. /supplier/raw-materials or /purchase/eudr/raw-materials. */
  listPath: string;
  detailPath: (id: number | string) => string;
  /** The wizard; with a draft id it resumes that draft. */
  newPath: (draftId?: number | string) => string;
  /** The edit form of a submitted delivery, optionally on a step (basic, materials, review). */
  editPath: (id: number | string, step?: string) => string;
  /** The supplier user's own parent vendor (fixed in the wizard), null for internal users. */
  ownParentVendor: number | null;
}

/**
 * Where the raw-material pages live for this user: the supplier portal keeps the form that made the
 * parent vendor known (route parameter or `pv` query, docs/specification.md section 6); internal users use /purchase.
 */
export function useEudrPortal(): EudrPortal {
  const { pathname } = useLocation();
  const { parentVendorId } = useParams();
  const [query] = useSearchParams();
  const user = useSession((s) => s.userInfo);
  const pv = query.get('pv');
  return useMemo(() => {
    const supplier = isSupplierPortalPath(pathname);
    const base = supplier ? paths.supplierBase('raw-materials', parentVendorId) : paths.rawMaterials();
    const keep = supplier && !parentVendorId && pv ? `pv=${encodeURIComponent(pv)}` : '';
    const withQuery = (path: string, extra = '') => {
      const parts = [keep, extra].filter(Boolean).join('&');
      return parts ? `${path}?${parts}` : path;
    };
    const own = parentVendorIdOf(user) ?? (supplier ? (parentVendorId ?? pv) : null);
    return {
      supplier,
      listPath: withQuery(base),
      detailPath: (id) => withQuery(`${base}/${id}`),
      newPath: (draftId) => withQuery(`${base}/new`, draftId === undefined ? '' : `draft=${draftId}`),
      editPath: (id, step) => withQuery(`${base}/${id}/edit`, step ? `step=${encodeURIComponent(step)}` : ''),
      ownParentVendor: supplier && own ? Number(own) : null,
    };
  }, [pathname, parentVendorId, pv, user]);
}
