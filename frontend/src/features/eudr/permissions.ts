export const APPROVE_OVER_CAP = 'eudr.approve_over_cap';
export const CHANGE_DELIVERY = 'eudr.change_rawmaterialdelivery';
export const DELETE_DELIVERY = 'eudr.delete_rawmaterialdelivery';
export const ADD_RECEIVED_REFERENCE = 'eudr.add_receivedreference';
export const CHANGE_RECEIVED_REFERENCE = 'eudr.change_receivedreference';
export const DELETE_RECEIVED_REFERENCE = 'eudr.delete_receivedreference';
