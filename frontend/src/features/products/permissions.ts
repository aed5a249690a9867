export const PRODUCT_PERMS = {
  add: 'products.add_product',
  change: 'products.change_product',
  delete: 'products.delete_product',
  addGroup: 'products.add_productgroup',
  changeGroup: 'products.change_productgroup',
  deleteGroup: 'products.delete_productgroup',
} as const;
