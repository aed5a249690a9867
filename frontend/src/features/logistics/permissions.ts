export const LOGISTICS_PERMS = {
  addShipment: 'logistics.add_shipmentinfo',
  changeShipment: 'logistics.change_shipmentinfo',
  deleteShipment: 'logistics.delete_shipmentinfo',
  addCompany: 'logistics.add_shipmentcompany',
  changeCompany: 'logistics.change_shipmentcompany',
  deleteCompany: 'logistics.delete_shipmentcompany',
} as const;
