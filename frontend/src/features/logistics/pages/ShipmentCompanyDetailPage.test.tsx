import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { ShipmentCompany } from '../api/types';

const BASE = '/api/logistics/shipment-companies/';

function company(overrides: Partial<ShipmentCompany> = {}): ShipmentCompany {
  return {
    id: 7,
    name: 'Maersk',
    contact_name: 'Mia',
    email: '',
    phone: '',
    website: '',
    tracking_url_template: '',
    shipments_count: 2,
    created_at: null,
    updated_at: null,
    ...overrides,
  };
}

let server: MockServer;
let current: ShipmentCompany;

beforeEach(() => {
  current = company();
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', `${BASE}by-name/Maersk/`, () => ok(current));
  server.on('GET', `${BASE}by-name/Maersk%20Line/`, () => ok(current));
  server.on('GET', BASE, ok({ count: 0, next: null, previous: null, results: [] }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ user: makeUser(), tenant: '3' });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

async function openEditor() {
  fireEvent.click(await screen.findByRole('button', { name: /Edit/ }));
  return screen.findByTestId('company-form');
}

describe('shipment company page', () => {
  it('Cancel leaves edit mode on the same page', async () => {
    const { router } = renderApp('/purchase/shipment-companies/Maersk');
    await openEditor();
    fireEvent.click(screen.getByTestId('company-cancel'));
    await waitFor(() => expect(screen.queryByTestId('company-form')).not.toBeInTheDocument());
    expect(screen.getByText('Mia')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/purchase/shipment-companies/Maersk');
  });

  it('saving shows the details again, at the new name when renamed', async () => {
    server.on('PATCH', `${BASE}7/`, (config) => {
      current = { ...current, ...(JSON.parse(String(config.data)) as Partial<ShipmentCompany>) };
      return ok(current);
    });
    const { router } = renderApp('/purchase/shipment-companies/Maersk');
    const form = await openEditor();
    fireEvent.change(within(form).getByLabelText('Contact'), { target: { value: 'Max' } });
    fireEvent.click(screen.getByTestId('company-save'));
    await waitFor(() => expect(screen.queryByTestId('company-form')).not.toBeInTheDocument());
    expect(await screen.findByText('Max')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/purchase/shipment-companies/Maersk');

    const again = await openEditor();
    fireEvent.change(within(again).getByLabelText('Name'), { target: { value: 'Maersk Line' } });
    fireEvent.click(screen.getByTestId('company-save'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/purchase/shipment-companies/Maersk%20Line'));
    await waitFor(() => expect(screen.queryByTestId('company-form')).not.toBeInTheDocument());
  });

  it('deleting shows one success message and returns to the list', async () => {
    server.on('DELETE', `${BASE}7/`, { status: 204 });
    const { router } = renderApp('/purchase/shipment-companies/Maersk');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await waitFor(() => {
      const button = document.querySelector<HTMLButtonElement>('.p-popconfirm-buttons .p-btn-dangerous');
      expect(button).not.toBeNull();
      return button as HTMLButtonElement;
    });
    fireEvent.click(confirm);
    await waitFor(() => expect(router.state.location.pathname).toBe('/purchase/shipment-companies'));
    await waitFor(() => expect(screen.getAllByText('Shipment company deleted')).toHaveLength(1));
    expect(screen.queryByText('Deleted')).not.toBeInTheDocument();
  });
});
