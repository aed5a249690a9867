export const PURCHASE_PERMS = {
  add: 'purchaseorders.add_purchaseorder',
  change: 'purchaseorders.change_purchaseorder',
  delete: 'purchaseorders.delete_purchaseorder',
  receive: 'purchaseorders.add_receipt',
  overReceive: 'purchaseorders.allow_over_receipt',
} as const;

export const SUPPLIER_INVOICE_PERMS = {
  view: 'purchaseorders.view_supplierinvoice',
  add: 'purchaseorders.add_supplierinvoice',
  change: 'purchaseorders.change_supplierinvoice',
  delete: 'purchaseorders.delete_supplierinvoice',
} as const;
