export const PURCHASE_PERMS = {
  add: 'purchaseorders.add_purchaseorder',
  change: 'purchaseorders.change_purchaseorder',
  delete: 'purchaseorders.delete_purchaseorder',
  receive: 'purchaseorders.add_receipt',
  overReceive: 'purchaseorders.allow_over_receipt',
} as const;
