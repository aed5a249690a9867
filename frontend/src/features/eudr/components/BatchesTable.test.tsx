import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ProductionBatch } from '../api/types';
import { renderAt } from '../test/harness';
import { BatchesTable } from './BatchesTable';

const BATCH: ProductionBatch = {
  id: 7,
  delivery: 12,
  production_batch_code: '20261127A',
  production_date: '2026-11-27',
  product: 3,
  product_name: 'Double wall carton',
  article_number: 'CT-DW-4030',
  purchase_order_line: 9,
  purchase_order: 'PO-2026-00011',
  purchase_order_id: 11,
  container: 'CTFU1234565',
  net_weight_per_carton_kg: '0.674',
  carton_count: 2,
  used_kg: '1.348',
  created_by_name: 'Sam Supplier',
  created_at: '2026-11-27T08:00:00Z',
  updated_at: '2026-11-27T08:00:00Z',
};

describe('production batches', () => {
  it('picks a batch from the keyboard: its code is a button', async () => {
    const onPick = vi.fn();
    renderAt('/x', '/x', <BatchesTable batches={[BATCH]} loading={false} onPick={onPick} />);
    const code = screen.getByRole('button', { name: '20261127A' });
    code.focus();
    await userEvent.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(onPick).toHaveBeenCalledWith('20261127A');
  });

  it('shows the production date as every page prints days', () => {
    // a wide screen, where the production date column shows
    const original = window.matchMedia;
    window.matchMedia = vi.fn((query: string) => ({ ...original(query), matches: true }));
    try {
      renderAt('/x', '/x', <BatchesTable batches={[BATCH]} loading={false} onPick={vi.fn()} />);
      expect(screen.getByText('27 Nov 2026')).toBeInTheDocument();
      expect(screen.queryByText('2026-11-27')).toBeNull();
    } finally {
      window.matchMedia = original;
    }
  });
});
