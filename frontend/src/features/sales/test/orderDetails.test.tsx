import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import type { SalesOrderDetail } from '../api/sales';
import { customer, makeOrder as makeSalesOrder, makeOrderLine, ORDER_URL, page, product, startSalesServer, stopSalesServer, vatTreatment } from './fixtures';

const ORDERS_URL = '/api/salesorders/orders/';

/** The draft of these tests: shipped to the customer's warehouse, in GBP at 45 days, owned by Ada, no
 * delivery dates yet. */
const makeOrder = (overrides: Partial<SalesOrderDetail> = {}) =>
  makeSalesOrder({
    ship_to_name: 'De Vries Magazijn',
    currency: 'GBP',
    payment_terms_days: 45,
    owner: 1,
    owner_name: 'Ada Admin',
    description: '',
    updated_at: '2026-03-01T08:00:00Z',
    lines: [makeOrderLine({ requested_date: null, confirmed_date: null })],
    ...overrides,
  });

async function pick(testId: string, label: string, type?: string) {
  const select = screen.getByTestId(testId);
  const input = select.querySelector('input') ?? select;
  fireEvent.mouseDown(select.querySelector('.p-select-selector') ?? select);
  if (type !== undefined) fireEvent.change(input, { target: { value: type } });
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('.p-select-item-option')].find((node) => node.textContent === label);
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
}

let server: MockServer;
let posted: Record<string, unknown> | null;

beforeEach(() => {
  posted = null;
  server = startSalesServer();
  server.on('GET', '/api/customers/', ok(page([customer])));
  server.on('GET', '/api/products/', ok(page([product])));
  server.on('GET', '/api/salesorders/orders/owners/', ok(page([{ id: 1, username: 'ada', name: 'Ada Admin' }, { id: 2, username: 'seller', name: 'Sam Seller' }])));
  server.on('POST', ORDERS_URL, (config) => {
    posted = JSON.parse(String(config.data)) as Record<string, unknown>;
    return ok(makeOrder());
  });
  server.on('GET', ORDER_URL, ok(makeOrder()));
});

afterEach(() => stopSalesServer(server));

async function fillNewOrder() {
  const { router } = renderApp('/sales/sales-order-detail');
  await screen.findByTestId('sales-customer');
  await pick('sales-customer', 'C-1001 Bakkerij de Vries BV', 'Bakk');
  await pick('line-product-0', 'CT-6040 Carton 60x40', 'CT');
  fireEvent.change(screen.getByRole('spinbutton', { name: 'Quantity 1' }), { target: { value: '10' } });
  return router;
}

describe('order details of the sales order form', () => {
  it("prefills the customer's delivery address, currency and terms, and sends what the user chose", async () => {
    const router = await fillNewOrder();
    // folded: the first view is the customer, date, reference and lines; the summary tells the defaults
    expect(screen.getByTestId('sales-details-summary')).toHaveTextContent('USD · 14 days · Havenweg 9, Rotterdam');
    fireEvent.click(screen.getByText(/More details/));
    expect(screen.getByLabelText('Currency')).toHaveValue('USD');
    expect(screen.getByLabelText('Payment terms (days)')).toHaveValue('14');
    expect(screen.getByLabelText('Street')).toHaveValue('Havenweg 9');
    expect(screen.getByLabelText('Post code')).toHaveValue('3011 AA');
    expect(screen.getByLabelText('City')).toHaveValue('Rotterdam');
    expect(screen.getByLabelText('Country (ISO code)')).toHaveValue('NL');
    expect(screen.getByLabelText('Name')).toHaveValue('Bakkerij de Vries BV');

    fireEvent.change(screen.getByLabelText('Currency'), { target: { value: 'gbp' } });
    fireEvent.change(screen.getByLabelText('Payment terms (days)'), { target: { value: '45' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'De Vries Magazijn' } });
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Delft' } });
    await pick('sales-owner', 'Ada Admin');
    // the totals follow the chosen currency
    await waitFor(() => expect(screen.getByTestId('total-gross')).toHaveTextContent('£30.25'));

    fireEvent.click(screen.getByTestId('save-draft'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
    expect(posted).toMatchObject({
      customer: 4,
      currency: 'GBP',
      payment_terms_days: 45,
      owner: 1,
      ship_to_name: 'De Vries Magazijn',
      ship_to_city: 'Delft',
      confirm: false,
    });
    // what the user left as the customer has it is the server's to fill in
    expect(posted).not.toHaveProperty('ship_to_street');
    expect(posted).not.toHaveProperty('ship_to_country');
  });

  it('sends no header details when the user changes none: the server applies the customer and the creator', async () => {
    const router = await fillNewOrder();
    fireEvent.click(screen.getByTestId('save-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
    expect(posted).toMatchObject({ customer: 4, confirm: true, lines: [{ product: 9, quantity: '10', vat_rate: '21', confirmed_date: null }] });
    for (const name of ['currency', 'payment_terms_days', 'owner', 'ship_to_name', 'ship_to_street', 'ship_to_post_code', 'ship_to_city', 'ship_to_country']) {
      expect(posted).not.toHaveProperty(name);
    }
  });

  it('proposes the VAT of an intra-EU business customer on new lines, with the legal mention', async () => {
    const asked: unknown[] = [];
    server.on('GET', '/api/salesorders/orders/vat-treatment/', (config) => {
      asked.push(config.params);
      return ok(
        vatTreatment({
          case: 'intra_eu_b2b',
          category: 'K',
          rate: '0.00',
          reverse_charge: true,
          exemption_code: 'VATEX-EU-IC',
          mention: 'Intra-Community supply of goods, exempt under Article 138 of Directive 2006/112/EC.',
        }),
      );
    });
    const router = await fillNewOrder();
    const note = await screen.findByTestId('vat-treatment');
    expect(note).toHaveTextContent('intra-EU supply to a business, 0 % (reverse charge)');
    expect(note).toHaveTextContent('Article 138');
    expect(note).toHaveTextContent('VAT rates as of 1 Jan 2026');
    expect(asked[0]).toMatchObject({ customer: 4, ship_to_country: 'NL' });
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'VAT % 1' })).toHaveValue('0'));
    // a line added later takes the proposal too
    fireEvent.click(screen.getByTestId('add-line'));
    expect(screen.getByRole('spinbutton', { name: 'VAT % 2' })).toHaveValue('0');
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 2' }));
    fireEvent.click(screen.getByTestId('save-draft'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
    expect(posted).toMatchObject({ lines: [{ vat_rate: '0' }] });
  }, 90_000);

  it("warns when the customer has no valid VAT number and is treated as a consumer elsewhere in the EU", async () => {
    server.on('GET', '/api/salesorders/orders/vat-treatment/', ok(vatTreatment({ case: 'distance_sale', customer_vat_number_valid: false })));
    await fillNewOrder();
    const note = await screen.findByTestId('vat-treatment');
    expect(note).toHaveTextContent('consumer in another EU country, 21 %');
    expect(note).toHaveTextContent('no valid EU VAT number');
  });

  it("shows a draft's details on the edit page and keeps them on save; a confirmed date is set per line", async () => {
    let saved: Record<string, unknown> | null = null;
    server.on('PUT', ORDER_URL, (config) => {
      saved = JSON.parse(String(config.data)) as Record<string, unknown>;
      return ok(makeOrder());
    });
    const { router } = renderApp('/sales/orders/12/edit');
    expect(await screen.findByTestId('sales-details-summary')).toHaveTextContent('GBP · 45 days · Havenweg 9, Rotterdam');
    fireEvent.click(screen.getByText(/More details/));
    expect(screen.getByLabelText('Currency')).toHaveValue('GBP');
    expect(screen.getByLabelText('Payment terms (days)')).toHaveValue('45');
    expect(screen.getByLabelText('Name')).toHaveValue('De Vries Magazijn');
    expect(within(screen.getByTestId('sales-owner')).getByText('Ada Admin')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('spinbutton', { name: 'Quantity 1' }), { target: { value: '120' } });
    const confirmed = screen.getByRole('textbox', { name: 'Confirmed date 1' });
    fireEvent.mouseDown(confirmed);
    fireEvent.change(confirmed, { target: { value: '2026-03-25' } });
    fireEvent.keyDown(confirmed, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(screen.getByTestId('save-order'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
    expect(saved).toMatchObject({
      customer: 4,
      currency: 'GBP',
      payment_terms_days: 45,
      owner: 1,
      ship_to_name: 'De Vries Magazijn',
      ship_to_street: 'Havenweg 9',
      ship_to_post_code: '3011 AA',
      ship_to_city: 'Rotterdam',
      ship_to_country: 'NL',
      lines: [{ id: 120, quantity: '120', confirmed_date: '2026-03-25' }],
    });
  });

  it("opens the details to show the server's errors on their fields", async () => {
    server.on(
      'PUT',
      ORDER_URL,
      fail(400, 'Invalid input.', 'validation_error', {
        currency: ['Enter a three-letter ISO 4217 currency code.'],
        ship_to_country: ['Enter a valid value.'],
      }),
    );
    renderApp('/sales/orders/12/edit');
    fireEvent.change(await screen.findByDisplayValue('PO-77'), { target: { value: 'PO-78' } });
    fireEvent.click(screen.getByTestId('save-order'));
    const currency = (await screen.findByText('Enter a three-letter ISO 4217 currency code.')).closest('.p-form-item');
    expect(within(currency as HTMLElement).getByLabelText('Currency')).toBeVisible();
    const country = screen.getByText('Enter a valid value.').closest('.p-form-item');
    expect(within(country as HTMLElement).getByLabelText('Country (ISO code)')).toHaveValue('NL');
    expect(screen.queryByTestId('create-error')).toHaveTextContent(/invalid input/i);
  });
});
