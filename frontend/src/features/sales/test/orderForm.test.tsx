import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { customer, makeOrder, page, product, startSalesServer, stopSalesServer, vatTreatment } from './fixtures';

const ORDERS_URL = '/api/salesorders/orders/';

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

const number = (name: string, line: number) => screen.getByRole('spinbutton', { name: `${name} ${line}` });
const type = (name: string, line: number, value: string) => fireEvent.change(number(name, line), { target: { value } });

let server: MockServer;
let posts: number;

beforeEach(() => {
  posts = 0;
  server = startSalesServer();
  server.on('GET', '/api/customers/', ok(page([{ ...customer, currency: 'EUR' }])));
  server.on('GET', '/api/products/', ok(page([{ ...product, sales_price: null }])));
  server.on('GET', '/api/salesorders/orders/vat-treatment/', ok(vatTreatment({ rate: '0.00' })));
  server.on('POST', ORDERS_URL, () => {
    posts += 1;
    return ok(makeOrder());
  });
});

afterEach(() => stopSalesServer(server));

describe('the sales order form', () => {
  it('keeps exact totals: 0.1 + 0.2 is 0.30, a large quantity times a price rounds half up as the server', async () => {
    renderApp('/sales/sales-order-detail');
    await screen.findByTestId('sales-customer');
    type('Quantity', 1, '1');
    type('Unit price', 1, '0.1');
    fireEvent.click(screen.getByTestId('add-line'));
    type('Quantity', 2, '1');
    type('Unit price', 2, '0.2');
    await waitFor(() => expect(screen.getByTestId('total-net')).toHaveTextContent('€0.30'));
    expect(screen.getByTestId('total-gross')).toHaveTextContent('€0.30');

    // 10 x 1.0005 = 10.005 -> 10.01 (a float product gives 10.00); 21 % VAT of 10.01 = 2.1021 -> 2.10
    type('Quantity', 1, '10');
    type('Unit price', 1, '1.0005');
    type('VAT %', 1, '21');
    await waitFor(() => expect(screen.getByTestId('line-amount-0')).toHaveTextContent('€10.01'));
    expect(screen.getByTestId('total-vat')).toHaveTextContent('€2.10');
    // 99999.999 x 9999.9999 less 12.5 % = 874999982.50 net, 183749996.33 VAT at 21 %
    type('Quantity', 2, '99999.999');
    type('Unit price', 2, '9999.9999');
    type('Discount %', 2, '12.5');
    type('VAT %', 2, '21');
    await waitFor(() => expect(screen.getByTestId('line-amount-1')).toHaveTextContent('€874,999,982.50'));
    expect(screen.getByTestId('total-net')).toHaveTextContent('€874,999,992.51');
    expect(screen.getByTestId('total-vat')).toHaveTextContent('€183,749,998.43');
    expect(screen.getByTestId('total-gross')).toHaveTextContent('€1,058,749,990.94');
  });

  it('asks for a customer and complete lines before it sends anything', async () => {
    renderApp('/sales/sales-order-detail');
    await screen.findByTestId('sales-customer');
    fireEvent.click(screen.getByTestId('save-draft'));
    expect(await screen.findByText('Choose a customer.')).toBeInTheDocument();
    expect(await screen.findByText('Add at least one line with a product, quantity and price.')).toBeInTheDocument();

    await pick('sales-customer', 'C-1001 Bakkerij de Vries BV', 'Bakk');
    await pick('line-product-0', 'CT-6040 Carton 60x40', 'CT');
    type('Quantity', 1, '0');
    type('Unit price', 1, '2');
    fireEvent.click(screen.getByTestId('save-confirm'));
    await waitFor(() => expect(screen.queryByText('Choose a customer.')).not.toBeInTheDocument());
    // a quantity of 0 is no line yet (said once the lines' validation, which runs after the customer's, ends)
    expect(await screen.findByText('Add at least one line with a product, quantity and price.')).toBeInTheDocument();
    expect(posts).toBe(0);

    // corrected, the problem goes and the order is saved
    type('Quantity', 1, '3');
    await waitFor(() => expect(screen.queryByText('Add at least one line with a product, quantity and price.')).not.toBeInTheDocument());
    fireEvent.click(screen.getByTestId('save-confirm'));
    await waitFor(() => expect(posts).toBe(1));
  });
});
