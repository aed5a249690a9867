import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import WarehouseDeliveriesPage from './WarehouseDeliveriesPage';

let server: MockServer;

function renderAt(path: string, element: ReactNode) {
  initI18n('en', allResources());
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '/', element }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
}

type Where = { location: number; location_code: string; location_name: string; on_hand: string; cartons: number };
const where = (location: number, location_code: string, on_hand: string, cartons: number): Where => ({
  location,
  location_code,
  location_name: '',
  on_hand,
  cartons,
});

const line = (
  id: number,
  product_number: string,
  quantity: string,
  labelled: boolean,
  ordered = '10.000',
  shipped = '0.000',
  pick_locations: Where[] = [],
) => ({
  id,
  order_line: id + 100,
  line_number: id,
  product: id + 200,
  product_number,
  product_name: product_number,
  description: '',
  ordered_quantity: ordered,
  shipped_quantity: shipped,
  quantity,
  quantity_invoiced: '0.000',
  labelled,
  cartons_picked: 0,
  unlabelled_quantity: '0.000',
  pick_locations,
});

const SHIPMENT = {
  id: 7,
  shipment_number: 'SH-2026-00007',
  sales_order: 3,
  order_number: 'SO-2026-00003',
  customer: 1,
  customer_name: 'Bakkerij de Vries BV',
  warehouse: 1,
  warehouse_code: 'RTM',
  status: 'draft',
  planned_date: '2026-11-26',
  shipped_at: null,
  delivered_at: null,
  carrier: '',
  tracking_number: '',
  note: '',
  lines_count: 2,
  total_qty: '8.000',
  cartons_count: 2,
  created_at: '2026-11-26T08:00:00Z',
  lines: [line(1, 'CT-6040', '5.000', true), line(2, 'TAPE-50', '3.000', false, '4.000', '0.000')],
  cartons: [
    { id: 1, carton: 11, code: 'AAAA', shipment_line: 1, product: 201, article_number: 'CT-6040', production_batch_code: '20261126A', net_weight_kg: '0.500', added_at: '2026-11-26T09:00:00Z' },
    { id: 2, carton: 12, code: 'BBBB', shipment_line: 1, product: 201, article_number: 'CT-6040', production_batch_code: '20261126A', net_weight_kg: '0.500', added_at: '2026-11-26T09:00:00Z' },
  ],
};

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser({ permissions: [] }) });
  server.on('GET', '/api/salesorders/shipments/7/', ok(SHIPMENT));
});

afterEach(() => server.restore());

describe('Ship asks with what is picked, missing and left', () => {
  it('shows per line the picked cartons, the missing ones and what stays open, and sends nothing before OK', async () => {
    const user = userEvent.setup();
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    await user.click(await screen.findByTestId('ship'));
    const summary = await screen.findByTestId('ship-summary');
    expect(within(summary).getByTestId('ship-summary-CT-6040')).toHaveTextContent('picked 2 of 5.000 cartons · missing 3 · left on the order 5');
    expect(within(summary).getByTestId('ship-summary-TAPE-50')).toHaveTextContent('3.000 without cartons · left on the order 1');
    expect(summary).toHaveTextContent('Labelled goods ship only as picked cartons');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    // a short pick is offered: the labelled line ships its 2 cartons, the unlabelled line keeps its quantity
    expect(screen.getByTestId('ship-picked')).toBeInTheDocument();
  });

  it('ships only what is picked: the labelled line becomes its carton count, the unlabelled line stays', async () => {
    const user = userEvent.setup();
    server.on('PATCH', '/api/salesorders/shipments/7/', ok(SHIPMENT));
    server.on('POST', '/api/salesorders/shipments/7/ship/', ok({ ...SHIPMENT, status: 'shipped' }));
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    await user.click(await screen.findByTestId('ship-picked'));
    const buttons = await screen.findAllByRole('button', { name: 'Ship only what is picked' });
    await user.click(buttons[buttons.length - 1]);
    await screen.findByText('SH-2026-00007 shipped.');
    const patch = server.requests.find((r) => r.method === 'PATCH');
    expect(JSON.parse(String(patch?.data))).toEqual({
      sales_order: 3,
      lines: [
        { order_line: 101, quantity: '2' },
        { order_line: 102, quantity: '3.000' },
      ],
    });
  });
});

describe('Pick lists say where', () => {
  const WHERE = {
    ...SHIPMENT,
    lines: [
      line(1, 'CT-6040', '5.000', true, '10.000', '0.000', [where(4, 'A-01', '2.000', 2), where(5, 'B-02', '3.000', 3)]),
      line(2, 'TAPE-50', '3.000', false, '4.000', '0.000', [where(5, 'B-02', '7.000', 0)]),
      line(3, 'CT-3020', '1.000', true),
    ],
  };

  it('shows each line\'s locations nearest first, and a line in stock nowhere', async () => {
    server.on('GET', '/api/salesorders/shipments/7/', ok(WHERE));
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    const cell = await screen.findByTestId('where-CT-6040');
    const rows = within(cell).getAllByRole('listitem').map((item) => item.textContent);
    expect(rows).toEqual(['A-01: 2 on hand · 2 cartons', 'B-02: 3 on hand · 3 cartons']);
    expect(screen.getByTestId('where-CT-3020')).toHaveTextContent('Nowhere in stock');
  });

  it('scanning a location first narrows the list to what is picked there, without picking anything', async () => {
    const user = userEvent.setup();
    server.on('GET', '/api/salesorders/shipments/7/', ok(WHERE));
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    await screen.findByTestId('where-CT-6040');
    const field = screen.getByRole('textbox', { name: /scan/i });
    await user.type(field, 'rtm/b-02{Enter}');
    expect(await screen.findByTestId('picking-at')).toHaveTextContent('Picking at B-02 · lines: 2');
    expect(screen.queryByTestId('where-CT-3020')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('where-CT-6040')).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'B-02: 3 on hand · 3 cartons',
    ]);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Show all lines' }));
    expect(await screen.findByTestId('where-CT-3020')).toBeInTheDocument();
    expect(screen.queryByTestId('picking-at')).not.toBeInTheDocument();
  });

  it('choosing a location narrows the list the same way', async () => {
    const user = userEvent.setup();
    server.on('GET', '/api/salesorders/shipments/7/', ok(WHERE));
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    await screen.findByTestId('where-CT-6040');
    await user.click(screen.getByRole('combobox', { name: 'Pick at location' }));
    await user.click(await screen.findByTitle('A-01'));
    expect(await screen.findByTestId('picking-at')).toHaveTextContent('Picking at A-01 · lines: 1');
    expect(screen.queryByTestId('where-TAPE-50')).not.toBeInTheDocument();
  });
});
