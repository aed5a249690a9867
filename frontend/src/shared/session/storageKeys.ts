/** Browser storage keys (docs/specification.md sections 3 and 9). Their names are part of the product. */
export const STORAGE_KEYS = {
  userInfo: 'userInfo',
  language: 'app-language',
  tenantId: 'tenant_id',
  username: 'username',
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  vismaOwnerId: 'vismaOwnerId',
  rememberUser: 'rememberUser',
  /** docs/specification.md leaves the name open: the parent vendor a supplier user last worked for. */
  currentParentVendorId: 'current_parent_vendor_id',
} as const;
