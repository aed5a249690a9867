import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { Shipment } from '../api/types';
import { carton } from '@/test/cartonLabels';

let server: MockServer;

const shipment: Shipment = {
  id: 4,
  container_number: 'MSCU1234566',
  seal_number: 'SL-1',
  shipment_company: null,
  shipment_company_detail: null,
  tracking_url: '',
  vessel: 'MAERSK EINDHOVEN',
  voyage: '412W',
  port_of_loading: 'CNSHA',
  port_of_discharge: 'NLRTM',
  etd: '2026-03-10',
  eta: '2026-04-14',
  status: 'in_transit',
  note: '',
  purchase_orders: [7],
  purchase_orders_detail: [{ id: 7, order_number: 'PO-2026-00007', supplier_name: 'Evergreen No.1', status: 'confirmed', promise_date: null }],
  cartons_count: 25,
  allowed_transitions: [],
  created_at: '2026-03-01T08:00:00Z',
  updated_at: null,
};

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/logistics/shipments/', ok({ count: 1, next: null, previous: null, results: [shipment] }));
  server.on('GET', '/api/logistics/shipments/4/', ok(shipment));
  server.on('GET', '/api/logistics/shipment-companies/', ok({ count: 0, next: null, previous: null, results: [] }));
  server.on('GET', '/api/common/content-types/', ok([{ id: 30, app_label: 'logistics', model: 'shipmentinfo' }]));
  server.on('GET', '/api/common/comments/', ok({ count: 0, next: null, previous: null, results: [] }));
  server.on('GET', '/api/eudr/cartons/', (config) => {
    const params = config.params as { page: number; page_size: number };
    const first = (params.page - 1) * params.page_size + 1;
    const results = Array.from({ length: Math.min(params.page_size, 25 - first + 1) }, (_, i) => carton(first + i));
    return ok({ count: 25, next: null, previous: null, results });
  });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('shipment days', () => {
  it('shows ETD and ETA in the list and the drawer as every page prints days', async () => {
    signIn({ user: makeUser(), tenant: '3' });
    renderApp('/purchase/shipments');
    expect(await screen.findByText('10 Mar 2026')).toBeInTheDocument();
    expect(screen.getByText('14 Apr 2026')).toBeInTheDocument();
    fireEvent.click(screen.getByText('MAERSK EINDHOVEN / 412W'));
    await screen.findByTestId('shipment-cartons');
    expect(screen.getAllByText('10 Mar 2026').length).toBeGreaterThan(1);
    expect(document.body).not.toHaveTextContent('2026-03-10');
  });
});

describe('shipment drawer cartons', () => {
  it('lists the cartons of the container, paged, each linking to its trace page', async () => {
    signIn({ user: makeUser(), tenant: '3' });
    renderApp('/purchase/shipments');
    fireEvent.click(await screen.findByText('MAERSK EINDHOVEN / 412W'));
    const list = await screen.findByTestId('shipment-cartons');
    expect(screen.getByText('Cartons carried (25)')).toBeInTheDocument();
    const links = await within(list).findAllByTestId('carton-trace-link');
    expect(links).toHaveLength(10);
    expect(links[0]).toHaveAttribute('href', 'https://trace.example/eudrtrace/CODE1');
    expect(within(list).getByText('20260301A · 1')).toBeInTheDocument();
    expect(server.requests.find((r) => r.url === '/api/eudr/cartons/')?.params).toMatchObject({
      container: 'MSCU1234566',
      page: 1,
      page_size: 10,
    });

    const second = list.querySelector('.p-pagination-item-2');
    expect(second).not.toBeNull();
    fireEvent.click(second as Element);
    expect(await within(list).findByText('CODE11')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.url === '/api/eudr/cartons/').pop()?.params).toMatchObject({ page: 2 });
  });

  it('shows no carton list to a user without access to carton labels', async () => {
    // Warehouse users get the forbidden page on this internal page; an internal user whose permissions
    // lack eudr.view_cartonlabel is the one who reaches the drawer without access to the labels.
    signIn({ user: makeUser({ permissions: ['logistics.view_shipmentinfo'] }), tenant: '3' });
    renderApp('/purchase/shipments');
    fireEvent.click(await screen.findByText('MAERSK EINDHOVEN / 412W'));
    await screen.findByTestId('comments-panel');
    // The drawer's panels load together: once the comments were asked for, a carton list would have been.
    await waitFor(() => expect(server.count('GET', '/api/common/comments/')).toBeGreaterThan(0));
    expect(screen.queryByTestId('shipment-cartons')).not.toBeInTheDocument();
    expect(server.count('GET', '/api/eudr/cartons/')).toBe(0);
  });
});
