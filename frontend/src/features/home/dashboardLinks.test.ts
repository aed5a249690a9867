import { describe, expect, it } from 'vitest';
import { countLink, humanizeKey, SHORTCUTS } from './dashboardLinks';

describe('dashboard links', () => {
  it('links known counts by user type and tolerates unknown keys', () => {
    expect(countLink('sales_orders', 'internal')).toBe('/sales/orders');
    expect(countLink('raw_materials', 'supplier')).toBe('/supplier/raw-materials');
    expect(countLink('sales_orders', 'supplier')).toBeUndefined();
    expect(countLink('mystery_count', 'internal')).toBeUndefined();
    expect(countLink('inventory', 'warehouse')).toBe('/warehouse/inventory');
    expect(countLink('products', 'warehouse')).toBeUndefined();
    expect(humanizeKey('mystery_count')).toBe('Mystery count');
  });

  it('has shortcuts for every user type', () => {
    expect(SHORTCUTS.internal.length).toBeGreaterThan(0);
    expect(SHORTCUTS.warehouse.map((s) => s.to)).toContain('/warehouse/inventory');
    expect(SHORTCUTS.supplier.map((s) => s.to)).toEqual(['/supplier/raw-materials', '/supplier/orders']);
  });
});
