/** Choice values of the EUDR models (labels come from the eudr namespace). */
export const MATERIAL_TYPES = ['paper', 'pulp', 'board', 'other'] as const;
export const PULP_TYPES = ['virgin', 'recycled', 'mixed'] as const;
export const CERTIFICATION_TYPES = ['FSC', 'PEFC', 'other', 'none'] as const;
export const STATUSES = ['draft', 'active', 'inactive', 'expired'] as const;
export const CAP_MODES = ['by_weight', 'fixed', 'none'] as const;
export const LABEL_TEMPLATES = ['default', 'compact'] as const;
export const LABEL_FORMATS = ['pdf', 'csv'] as const;
