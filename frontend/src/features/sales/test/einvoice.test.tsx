import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { created, fail, ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import { saveBlob } from '@/shared/utils/saveFile';
import type { EInvoiceDelivery } from '../api/sales';
import { bodyOf as requestBody, INVOICE_URL, makeInvoice, startSalesServer, stopSalesServer } from './fixtures';

vi.mock('@/shared/utils/saveFile', () => ({ saveBlob: vi.fn() }));

let server: MockServer;

function delivery(overrides: Partial<EInvoiceDelivery> = {}): EInvoiceDelivery {
  return {
    id: 1,
    channel: 'peppol',
    status: 'sent',
    formats: ['ubl'],
    recipient: '9920:ESA12345674',
    message_id: 'msg-1',
    error: '',
    error_message: '',
    email_message: null,
    email_status: '',
    requested_by_name: 'seller',
    created_at: '2026-04-02T10:00:00Z',
    finished_at: '2026-04-02T10:00:01Z',
    ...overrides,
  };
}

beforeEach(() => {
  server = startSalesServer();
  server.on('GET', INVOICE_URL, ok(makeInvoice()));
  server.on('GET', `${INVOICE_URL}deliveries/`, ok([]));
});

afterEach(() => stopSalesServer(server));

const bodyOf = (method: string, url: string) => requestBody(server, method, url);

describe('e-invoices of a posted invoice', () => {
  it('downloads the Factur-X PDF under the name the server gives', async () => {
    const pdf = new Blob(['%PDF'], { type: 'application/pdf' });
    server.on('GET', `${INVOICE_URL}facturx/`, {
      status: 200,
      data: pdf,
      headers: { 'Content-Disposition': 'attachment; filename="INV-2026-00005-factur-x.pdf"' },
    });
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('invoice-facturx'));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(pdf, 'INV-2026-00005-factur-x.pdf'));
  });

  it('lists the rules a refused Factur-X breaks', async () => {
    const json = JSON.stringify({
      code: 409,
      message: 'The Factur-X e-invoice breaks the rules listed and is not issued.',
      error: 'facturx_invalid',
      data: [{ rule: 'BR-09', message: 'The Seller postal address (BG-5) shall contain a Seller country code (BT-40).' }],
    });
    server.on('GET', `${INVOICE_URL}facturx/`, { status: 409, data: Object.assign(new Blob([json]), { text: () => Promise.resolve(json) }) });
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('invoice-facturx'));
    expect(await screen.findByText('The Factur-X e-invoice breaks the rules listed and is not issued.')).toBeInTheDocument();
    expect(screen.getByTestId('ubl-problems')).toHaveTextContent('BR-09: The Seller postal address');
  });

  it('e-mails the chosen files to the given recipients', async () => {
    server.on('POST', `${INVOICE_URL}send-email/`, created(delivery({ channel: 'email', status: 'queued', recipient: 'ap@x.example', formats: ['facturx', 'ubl'] })));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('send-email'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'UBL XML (Peppol BIS 3.0)' }));
    const to = within(dialog).getByRole('combobox');
    fireEvent.change(to, { target: { value: 'ap@x.example' } });
    fireEvent.keyDown(to, { key: 'Enter', code: 'Enter' });
    fireEvent.click(within(dialog).getByTestId('send-einvoice-email'));
    await waitFor(() => expect(bodyOf('POST', `${INVOICE_URL}send-email/`)).toEqual({ formats: ['ubl', 'facturx'], to: ['ap@x.example'] }));
    expect(await screen.findByText('Queued for ap@x.example')).toBeInTheDocument();
  });

  it('shows an e-mail refusal inside the dialog, and sends nothing without a file', async () => {
    server.on('POST', `${INVOICE_URL}send-email/`, fail(409, 'The customer has no e-mail address.', 'einvoice_no_recipient'));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('send-email'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('send-einvoice-email'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The customer has no e-mail address.');
    expect(bodyOf('POST', `${INVOICE_URL}send-email/`)).toEqual({ formats: ['facturx'] });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Factur-X PDF' }));
    expect(within(dialog).getByTestId('send-einvoice-email')).toBeDisabled();
  });

  it('sends via Peppol after asking, and shows the deliveries with a failure and its reason', async () => {
    server.on('POST', `${INVOICE_URL}peppol/`, ok(delivery()));
    server.on(
      'GET',
      `${INVOICE_URL}deliveries/`,
      ok([
        delivery({ id: 2 }),
        delivery({ id: 1, status: 'failed', message_id: '', error: 'unavailable', error_message: 'The access point is not available (answer 5xx); try again later.' }),
        delivery({ id: 3, channel: 'email', status: 'queued', email_status: 'sent', recipient: 'ap@x.example', message_id: '', formats: ['facturx'] }),
      ]),
    );
    renderApp('/sales/invoices/30');
    const card = await screen.findByTestId('einvoice-deliveries');
    expect(await within(card).findByTestId('delivery-status-1')).toHaveTextContent('Failed');
    expect(within(card).getByText('The access point is not available (answer 5xx); try again later.')).toBeInTheDocument();
    expect(within(card).getByTestId('delivery-status-2')).toHaveTextContent('Sent');
    expect(within(card).getByTestId('delivery-status-3')).toHaveTextContent('Sent');
    fireEvent.click(screen.getByTestId('send-peppol'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Sent via Peppol (message msg-1)')).toBeInTheDocument();
  });

  it('shows a Peppol refusal on the page', async () => {
    server.on('POST', `${INVOICE_URL}peppol/`, fail(502, 'The access point refused the API key.', 'peppol_delivery_failed', { delivery: 4, reason: 'unauthorized' }));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('send-peppol'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('The access point refused the API key.')).toBeInTheDocument();
  });

  it('offers no sending to a reader of invoices', async () => {
    signIn({ user: makeUser({ id: 2, username: 'viewer', permissions: ['salesorders.view_invoice'] }), tenant: '3' });
    renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-facturx')).toBeInTheDocument();
    expect(screen.queryByTestId('send-email')).not.toBeInTheDocument();
    expect(screen.queryByTestId('send-peppol')).not.toBeInTheDocument();
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
  });
});
