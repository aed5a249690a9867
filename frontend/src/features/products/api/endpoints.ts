export const PRODUCTS_URL = '/api/products/';
export const PRODUCT_GROUPS_URL = '/api/products/groups/';
export const PRODUCT_GROUP_TREE_URL = '/api/products/groups/tree/';

export const productUrl = (id: number | string) => `${PRODUCTS_URL}${id}/`;
export const productGroupUrl = (id: number | string) => `${PRODUCT_GROUPS_URL}${id}/`;
