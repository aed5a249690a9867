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

const line = (id: number, product_number: string, quantity: string, labelled: boolean, ordered = '10.000', shipped = '0.000') => ({
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
  pick_locations: [
    { shipment_line: 1, product: 201, location: 5, code: 'A-01', name: '', cartons: 1, quantity: '1.000' },
    { shipment_line: 1, product: 201, location: 6, code: 'B-02', name: '', cartons: 4, quantity: '4.000' },
    { shipment_line: 2, product: 202, location: 6, code: 'B-02', name: '', cartons: null, quantity: '12.000' },
    { shipment_line: 2, product: 202, location: 7, code: 'C-03', name: '', cartons: null, quantity: '3.000' },
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
  it('shows the locations of each line nearest first, and a scanned location narrows the list without picking', async () => {
    const user = userEvent.setup();
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    expect(await screen.findByTestId('where-CT-6040')).toHaveTextContent('A-01 · 1 cartonB-02 · 4 cartons');
    expect(screen.getByTestId('where-TAPE-50')).toHaveTextContent('B-02 · 12C-03 · 3');

    // Scanning a location's code chooses the location: only what stands there is listed, nothing is sent.
    const field = screen.getByRole('textbox', { name: 'Scan a carton to pick' });
    await user.type(field, 'c-03{Enter}');
    expect(await screen.findByText('Picking at C-03')).toBeInTheDocument();
    expect(screen.queryByTestId('where-CT-6040')).not.toBeInTheDocument();
    expect(screen.getByTestId('where-TAPE-50')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('A location whose last carton is picked is done', () => {
  it('shows the whole list again and says the place is done, instead of an empty list', async () => {
    const user = userEvent.setup();
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    const field = await screen.findByRole('textbox', { name: 'Scan a carton to pick' });
    await user.type(field, 'A-01{Enter}');
    expect(await screen.findByText('Picking at A-01')).toBeInTheDocument();
    expect(screen.queryByTestId('where-TAPE-50')).not.toBeInTheDocument();

    // The one carton at A-01 is picked: the shipment comes back with nothing left there.
    const after = { ...SHIPMENT, pick_locations: SHIPMENT.pick_locations.filter((place) => place.code !== 'A-01') };
    server.on('POST', '/api/salesorders/shipments/7/cartons/', ok({ ...after, status: 'draft' }));
    server.on('GET', '/api/salesorders/shipments/7/', ok(after));
    await user.type(field, 'CCCC{Enter}');
    expect(await screen.findByText('Everything at A-01 is picked.')).toBeInTheDocument();
    expect(await screen.findByTestId('where-TAPE-50')).toBeInTheDocument();
    expect(screen.getByTestId('where-CT-6040')).toHaveTextContent('B-02 · 4 cartons');
  });

  it('keeps the location while cartons of the shipment still stand there', async () => {
    const user = userEvent.setup();
    renderAt('/?shipment=7', <WarehouseDeliveriesPage />);
    const field = await screen.findByRole('textbox', { name: 'Scan a carton to pick' });
    await user.type(field, 'B-02{Enter}');
    expect(await screen.findByText('Picking at B-02')).toBeInTheDocument();
    server.on('POST', '/api/salesorders/shipments/7/cartons/', ok(SHIPMENT));
    await user.type(field, 'DDDD{Enter}');
    await screen.findAllByText('DDDD');
    expect(screen.queryByText('Everything at B-02 is picked.')).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Pick at location (scan or choose)' })).toBeInTheDocument();
    expect(screen.getByTestId('where-TAPE-50')).toBeInTheDocument();
  });
});
