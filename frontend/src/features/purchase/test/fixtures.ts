import type { PurchaseOrderDetail, Receipt } from '../api/types';

/** An order of Shanghai Evergreen Packaging with one labelled line, as the API answers it. */
export function makeOrder(overrides: Partial<PurchaseOrderDetail> = {}): PurchaseOrderDetail {
  return {
    id: 7,
    order_number: 'PO-2026-00007',
    order_date: '2026-03-01',
    supplier: 3,
    supplier_detail: { id: 3, number: 'S-1001', name: 'Evergreen No.1', parent_vendor: { id: 5, name: 'Shanghai Evergreen Packaging', cname: '上海常青包装' } },
    currency: 'EUR',
    total_amount: '125.00',
    description: 'Spring carton run',
    type: 'standard',
    promise_date: '2026-04-01',
    owner: 2,
    owner_name: 'Bob Buyer',
    status: 'partly_received',
    lines_count: 1,
    ordered_qty: '100.000',
    received_qty: '10.000',
    cartons_issued: 2,
    allowed_transitions: [],
    lines_editable: true,
    created_at: '2026-03-01T08:00:00Z',
    updated_at: '2026-03-01T08:00:00Z',
    lines: [
      {
        id: 70,
        line_number: 1,
        product: 9,
        product_number: 'CT-6040',
        product_name: 'Carton 600x400',
        product_name_zh: '纸箱 600x400',
        line_description: 'Carton 600x400',
        order_qty: '100.000',
        unit_cost: '1.2500',
        amount: '125.00',
        weight_per_carton: '0.850',
        delivery_date: null,
        received_qty: '10.000',
        open_qty: '90.000',
        cartons_issued: 2,
      },
    ],
    ...overrides,
  };
}

export function makeReceipt(overrides: Partial<Receipt> = {}): Receipt {
  return {
    id: 31,
    receipt_number: 'RC-2026-00001',
    purchase_order: 7,
    purchase_order_number: 'PO-2026-00007',
    supplier: { id: 3, number: 'S-1001', name: 'Evergreen No.1', parent_vendor: { id: 5, name: 'Shanghai Evergreen Packaging', cname: '' } },
    warehouse: 1,
    warehouse_detail: { id: 1, code: 'RTM', name: 'Rotterdam' },
    receipt_date: '2026-03-05',
    note: '',
    over_receipt: false,
    lines_count: 1,
    total_qty: '10.000',
    created_by_name: 'Walter',
    created_at: '2026-03-05T08:00:00Z',
    ...overrides,
  };
}

export const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

export { carton } from '@/test/cartonLabels';
