/** The app-wide endpoints the shell and the shared modules read (features keep theirs in their api/ folder). */
export const ME_URL = '/api/users/me/';
export const TENANTS_URL = '/api/tenants/';
export const CONTENT_TYPES_URL = '/api/common/content-types/';
