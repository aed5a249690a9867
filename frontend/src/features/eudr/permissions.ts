export const APPROVE_OVER_CAP = 'eudr.approve_over_cap';
export const CHANGE_DELIVERY = 'eudr.change_rawmaterialdelivery';
export const DELETE_DELIVERY = 'eudr.delete_rawmaterialdelivery';
