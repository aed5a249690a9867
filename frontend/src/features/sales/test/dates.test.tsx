import { act, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import type { Delivery } from '../api/sales';
import { INVOICE_URL, makeInvoice, makeOrder, makeOrderLine, ORDER_URL, page, startSalesServer, stopSalesServer } from './fixtures';

let server: MockServer;

beforeEach(() => {
  server = startSalesServer();
});

afterEach(() => stopSalesServer(server));

const delivery: Delivery = {
  id: 7,
  order: 12,
  order_number: 'SO-2026-00012',
  order_status: 'confirmed',
  customer: 4,
  customer_name: 'Bakery Jansen',
  warehouse: 1,
  warehouse_code: 'RTM',
  line_number: 1,
  product: 9,
  product_number: 'CT-6040',
  product_name: 'Carton 60x40',
  description: '',
  quantity: '100.000',
  quantity_shipped: '0.000',
  quantity_reserved: '0.000',
  requested_date: '2026-03-20',
  confirmed_date: '2026-03-22',
  due_date: '2026-03-22',
  open_quantity: '100.000',
  planned_quantity: '40.000',
  planned_date: '2026-03-18',
  is_late: false,
  schedule_status: 'planned',
};

// Days as the user reads them, the same on every page ("26 Nov 2026"), never the API's ISO text.
describe('sales pages show days in the user language', () => {
  it('the invoice page shows its issue and due dates', async () => {
    server.on('GET', INVOICE_URL, ok(makeInvoice()));
    renderApp('/sales/invoices/30');
    expect(await screen.findByText('10 Mar 2026')).toBeInTheDocument();
    expect(screen.getByText('9 Apr 2026')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('2026-03-10');
  });

  it('the invoice list shows issue and due dates', async () => {
    server.on('GET', '/api/salesorders/invoices/', ok(page([makeInvoice()])));
    renderApp('/sales/invoices');
    expect(await screen.findByText('10 Mar 2026')).toBeInTheDocument();
    expect(screen.getByText('9 Apr 2026')).toBeInTheDocument();
  });

  it('the order page shows its order date', async () => {
    server.on('GET', ORDER_URL, ok(makeOrder({ lines: [makeOrderLine({ requested_date: '2026-03-20' })] })));
    renderApp('/sales/orders/12');
    expect(await screen.findByText('1 Mar 2026')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('2026-03-01');
  });

  it('the delivery page shows the due, requested, confirmed and planned dates', async () => {
    server.on('GET', '/api/salesorders/deliveries/7/', ok(delivery));
    renderApp('/sales/deliveries/7');
    expect(await screen.findByText('20 Mar 2026')).toBeInTheDocument();
    expect(screen.getAllByText('22 Mar 2026')).toHaveLength(2);
    expect(screen.getByText(/\(18 Mar 2026\)/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/\d{4}-\d{2}-\d{2}/);
  });

  it('speaks Chinese days in Chinese', async () => {
    server.on('GET', INVOICE_URL, ok(makeInvoice()));
    renderApp('/sales/invoices/30');
    expect(await screen.findByText('10 Mar 2026')).toBeInTheDocument();
    try {
      await act(() => i18n.changeLanguage('zh'));
      expect(await screen.findByText('2026年3月10日')).toBeInTheDocument();
      expect(screen.getByText('2026年4月9日')).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
