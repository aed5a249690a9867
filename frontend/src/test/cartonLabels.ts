/** A carton label as `/api/eudr/cartons/` lists it, for tests of the features that show cartons. */
export const carton = (n: number) => ({
  id: n,
  code: `CODE${n}`,
  qr_url: `https://trace.example/eudrtrace/CODE${n}`,
  production_batch_code: '20260301A',
  batch_sequence: n,
  article_number: 'CT-6040',
  product_name: 'Carton 600x400',
  purchase_order: 'PO-2026-00007',
  container: 'MSCU1234566',
  net_weight_kg: '0.850',
  created_at: '2026-03-02T08:00:00Z',
});
