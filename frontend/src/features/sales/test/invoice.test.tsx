import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { created, fail, ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import { saveBlob } from '@/shared/utils/saveFile';
import { bodyOf as requestBody, INVOICE_URL, makeDraftInvoice, makeInvoice, startSalesServer, stopSalesServer } from './fixtures';

vi.mock('@/shared/utils/saveFile', () => ({ saveBlob: vi.fn() }));

let server: MockServer;

beforeEach(() => {
  server = startSalesServer();
  server.on('GET', INVOICE_URL, ok(makeInvoice()));
  server.on('GET', '/api/salesorders/invoices/31/', ok(makeInvoice({ id: 31, kind: 'credit_note', status: 'draft', number: '', credited_invoice: 30 })));
});

afterEach(() => stopSalesServer(server));

const bodyOf = (method: string, url: string) => requestBody(server, method, url);

describe('a posted invoice', () => {
  it('credits part of it: lowered quantities become credit lines, and the credit note opens', async () => {
    server.on('POST', `${INVOICE_URL}credit-note/`, created(makeInvoice({ id: 31, kind: 'credit_note', status: 'draft', number: '' })));
    const { router } = renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('credit-note'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('credit-net')).toHaveTextContent('€75.00');
    expect(within(dialog).getByRole('button', { name: 'Credit in full' })).toBeInTheDocument();

    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Quantity to credit, line 1' }), { target: { value: '4' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Quantity to credit, line 2' }), { target: { value: '0' } });
    await waitFor(() => expect(within(dialog).getByTestId('credit-net')).toHaveTextContent('€10.00'));
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'Four damaged' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit these quantities' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/invoices/31'));
    expect(bodyOf('POST', `${INVOICE_URL}credit-note/`)).toEqual({
      note: 'Four damaged',
      post: false,
      lines: [{ invoice_line: 301, quantity: '4' }],
    });
  });

  it('credits in full without lines, and shows a refusal inside the dialog', async () => {
    server.on('POST', `${INVOICE_URL}credit-note/`, fail(400, 'More is credited than is left to credit.', 'over_credit'));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('credit-note'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit in full' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('More is credited than is left to credit.');
    expect(bodyOf('POST', `${INVOICE_URL}credit-note/`)).toEqual({ note: '', post: true });
  });

  it('records a payment of the open amount by default', async () => {
    server.on('POST', `${INVOICE_URL}payments/`, ok(makeInvoice({ amount_paid: '90.75', payment_status: 'paid' })));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('record-payment'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Still open: €70.75')).toBeInTheDocument();
    expect(within(dialog).getByTestId('payment-amount').querySelector('input') ?? within(dialog).getByTestId('payment-amount')).toHaveValue('70.75');
    fireEvent.change(within(dialog).getByLabelText('Reference'), { target: { value: 'Bank 117/1' } });
    fireEvent.click(within(dialog).getByTestId('save-payment'));
    await waitFor(() =>
      expect(bodyOf('POST', `${INVOICE_URL}payments/`)).toEqual({
        amount: '70.75',
        received_on: new Date().toLocaleDateString('sv-SE'),
        reference: 'Bank 117/1',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a refused payment in its dialog and keeps what was typed', async () => {
    server.on('POST', `${INVOICE_URL}payments/`, fail(400, 'A payment cannot be received after today.', 'payment_in_future'));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('record-payment'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Reference'), { target: { value: 'Bank 117/1' } });
    fireEvent.click(within(dialog).getByTestId('save-payment'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A payment cannot be received after today.');
    expect(within(dialog).getByLabelText('Reference')).toHaveValue('Bank 117/1');
  });

  it('lists each payment received with its day, amount, reference and who recorded it', async () => {
    server.on(
      'GET',
      INVOICE_URL,
      ok(
        makeInvoice({
          amount_paid: '30.00',
          payments: [
            { id: 41, amount: '20.00', received_on: '2026-03-15', reference: 'Bank 114/3', source: 'manual', created_by_name: 'Sam Seller', created_at: '2026-03-15T10:00:00Z' },
            { id: 42, amount: '10.00', received_on: '2026-03-20', reference: '', source: 'accounting', created_by_name: '', created_at: '2026-03-20T10:00:00Z' },
          ],
        }),
      ),
    );
    renderApp('/sales/invoices/30');
    const card = await screen.findByTestId('invoice-payments');
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.id)).toEqual(['payment-41', 'payment-42']);
    expect(rows[0]).toHaveTextContent('15 Mar 2026');
    expect(rows[0]).toHaveTextContent('€20.00');
    expect(rows[0]).toHaveTextContent('Bank 114/3');
    expect(rows[0]).toHaveTextContent('Sam Seller');
    expect(rows[1]).toHaveTextContent('The accounting system');
    expect(rows[1]).toHaveTextContent('—');
  });

  it('has no payments table before anything is paid', async () => {
    server.on('GET', INVOICE_URL, ok(makeInvoice({ amount_paid: '0.00', payments: [], payment_status: 'open' })));
    renderApp('/sales/invoices/30');
    await screen.findByTestId('invoice-amount-due');
    expect(screen.queryByTestId('invoice-payments')).not.toBeInTheDocument();
  });

  it('shows what was credited and paid, the amount due, and links its credit notes', async () => {
    server.on(
      'GET',
      INVOICE_URL,
      ok(
        makeInvoice({
          credited_amount: '12.10',
          amount_due: '58.65',
          vat_mention: 'Intra-Community supply of goods, exempt under Article 138 of Directive 2006/112/EC.',
          credit_notes: [
            { id: 31, number: 'CN-2026-00002', status: 'posted', issue_date: '2026-03-12', total_gross: '12.10' },
            { id: 32, number: '', status: 'draft', issue_date: null, total_gross: '3.03' },
          ],
        }),
      ),
    );
    const { router } = renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-amount-due')).toHaveTextContent('€58.65');
    expect(screen.getByTestId('invoice-credited')).toHaveTextContent('€12.10');
    expect(screen.getByTestId('invoice-vat-mention')).toHaveTextContent('Article 138');
    expect(screen.getByTestId('invoice-payment-reference')).toHaveTextContent('RF65 INV2 0260 0005');
    expect(screen.getByTestId('invoice-iban')).toHaveTextContent('NL91 ABNA 0417 1643 00 · ABNANL2A');
    const notes = screen.getByTestId('invoice-credit-notes');
    expect(notes).toHaveTextContent('CN-2026-00002 · €12.10');
    expect(notes).toHaveTextContent('(Draft)');
    fireEvent.click(within(notes).getByText(/CN-2026-00002/));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/invoices/31'));
  });

  it('downloads its e-invoice (UBL) under the name the server gives', async () => {
    const xml = new Blob(['<Invoice/>'], { type: 'application/xml' });
    server.on('GET', `${INVOICE_URL}ubl/`, {
      status: 200,
      data: xml,
      headers: { 'Content-Disposition': 'attachment; filename="INV-2026-00005.xml"' },
    });
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('invoice-ubl'));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(xml, 'INV-2026-00005.xml'));
  });

  it('lists the rules a refused e-invoice breaks', async () => {
    const json = JSON.stringify({
      code: 409,
      message: 'The e-invoice breaks the rules listed and is not issued.',
      error: 'ubl_invalid',
      data: [{ rule: 'PEPPOL-EN16931-R010', message: 'Buyer electronic address MUST be provided.' }],
    });
    // jsdom's Blob has no text(); a browser's has.
    server.on('GET', `${INVOICE_URL}ubl/`, { status: 409, data: Object.assign(new Blob([json]), { text: () => Promise.resolve(json) }) });
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('invoice-ubl'));
    expect(await screen.findByText('The e-invoice breaks the rules listed and is not issued.')).toBeInTheDocument();
    expect(screen.getByTestId('ubl-problems')).toHaveTextContent('PEPPOL-EN16931-R010: Buyer electronic address MUST be provided.');
  });

  it('offers no payment once credit notes cover all of it', async () => {
    server.on('GET', INVOICE_URL, ok(makeInvoice({ payment_status: 'credited', amount_due: '0.00', credited_amount: '90.75' })));
    renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-amount-due')).toHaveTextContent('€0.00');
    expect(screen.getByTestId('payment-status')).toHaveTextContent('Credited');
    expect(screen.queryByTestId('record-payment')).not.toBeInTheDocument();
  });

  it('offers neither credit nor payment without the permissions', async () => {
    signIn({ user: makeUser({ id: 2, username: 'viewer', permissions: ['salesorders.view_invoice'] }), tenant: '3' });
    renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-total-gross')).toHaveTextContent('€90.75');
    for (const id of ['credit-note', 'record-payment', 'post-invoice']) expect(screen.queryByTestId(id)).not.toBeInTheDocument();
  });
});

describe('a draft invoice', () => {
  const draftNote = () => screen.getByLabelText('Note');
  const terms = () => screen.getByRole('spinbutton', { name: 'Payment terms (days)' });

  beforeEach(() => {
    server.on('GET', INVOICE_URL, ok(makeDraftInvoice({ note: 'Gate 2' })));
  });

  it('saves its note and payment terms with the version it was read at; posting waits until saved', async () => {
    server.on('PATCH', INVOICE_URL, (config) => {
      const body = JSON.parse(String(config.data)) as Record<string, unknown>;
      server.on('GET', INVOICE_URL, ok(makeDraftInvoice({ note: String(body.note), payment_terms_days: Number(body.payment_terms_days), updated_at: '2026-03-11T08:00:00Z' })));
      return ok(makeDraftInvoice({ note: String(body.note), payment_terms_days: Number(body.payment_terms_days) }));
    });
    renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-draft-details')).toBeInTheDocument();
    expect(draftNote()).toHaveValue('Gate 2');
    expect(terms()).toHaveValue('30');
    const save = screen.getByTestId('save-invoice-details');
    expect(save).toBeDisabled();
    expect(screen.getByTestId('post-invoice')).toBeEnabled();

    fireEvent.change(draftNote(), { target: { value: 'Deliver to gate 4' } });
    fireEvent.change(terms(), { target: { value: '14' } });
    await waitFor(() => expect(save).toBeEnabled());
    expect(screen.getByTestId('post-invoice')).toBeDisabled();
    fireEvent.click(save);

    await waitFor(() =>
      expect(bodyOf('PATCH', INVOICE_URL)).toEqual({
        note: 'Deliver to gate 4',
        payment_terms_days: 14,
        language: 'en',
        reverse_charge: false,
        unchanged_since: '2026-03-10T09:00:00.000001Z',
      }),
    );
    // saved: the form shows the invoice as it is now, clean, and posting is possible again
    await waitFor(() => expect(save).toBeDisabled());
    expect(draftNote()).toHaveValue('Deliver to gate 4');
    expect(screen.getByTestId('post-invoice')).toBeEnabled();
  });

  it('sends the version the user started editing from, even after the page read a newer one', async () => {
    server.on('PATCH', INVOICE_URL, ok(makeDraftInvoice()));
    const { queryClient } = renderApp('/sales/invoices/30');
    fireEvent.change(await screen.findByLabelText('Note'), { target: { value: 'Mine' } });
    // someone else saved the draft meanwhile, and the page reads it again: the user's typing stays
    server.on('GET', INVOICE_URL, ok(makeDraftInvoice({ note: 'Theirs', updated_at: '2026-03-10T11:00:00Z' })));
    await queryClient.invalidateQueries();
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'GET' && r.url === INVOICE_URL).length).toBeGreaterThan(1));
    expect(draftNote()).toHaveValue('Mine');
    fireEvent.click(screen.getByTestId('save-invoice-details'));
    // so the server can refuse it (invoice_changed) instead of overwriting "Theirs"
    await waitFor(() => expect(bodyOf('PATCH', INVOICE_URL)).toMatchObject({ note: 'Mine', unchanged_since: '2026-03-10T09:00:00.000001Z' }));
  });

  it("shows the server's refusal and field errors in the form and keeps what the user typed", async () => {
    const message = 'The invoice was changed since it was opened and was not saved; reload it to see the change.';
    server.on('PATCH', INVOICE_URL, fail(409, message, 'invoice_changed'));
    renderApp('/sales/invoices/30');
    fireEvent.change(await screen.findByLabelText('Note'), { target: { value: 'Mine' } });
    fireEvent.click(screen.getByTestId('save-invoice-details'));
    expect(await screen.findByTestId('invoice-details-error')).toHaveTextContent(message);
    expect(draftNote()).toHaveValue('Mine');
    expect(screen.getByTestId('save-invoice-details')).toBeEnabled();

    server.on('PATCH', INVOICE_URL, fail(400, 'Invalid input.', 'validation_error', { payment_terms_days: ['Ensure this value is less than or equal to 365.'] }));
    fireEvent.click(screen.getByTestId('save-invoice-details'));
    const item = (await screen.findByText('Ensure this value is less than or equal to 365.')).closest('.p-form-item');
    expect(within(item as HTMLElement).getByRole('spinbutton', { name: 'Payment terms (days)' })).toBeInTheDocument();
  });

  it('asks before leaving with unsaved details, and not once they are typed back', async () => {
    const { router } = renderApp('/sales/invoices/30');
    fireEvent.change(await screen.findByLabelText('Note'), { target: { value: 'Changed' } });
    fireEvent.click(screen.getByRole('button', { name: 'SO-2026-00012' }));
    expect((await screen.findAllByText('Leave without saving?')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryAllByText('Leave without saving?')).toHaveLength(0));
    expect(router.state.location.pathname).toBe('/sales/invoices/30');

    fireEvent.change(draftNote(), { target: { value: 'Gate 2' } });
    expect(screen.getByTestId('save-invoice-details')).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'SO-2026-00012' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
  });

  it('is read-only once posted, and for a user who may not change invoices', async () => {
    server.on('GET', INVOICE_URL, ok(makeInvoice({ note: 'Gate 2', payment_terms_days: 14 })));
    const posted = renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-note')).toHaveTextContent('Gate 2');
    expect(screen.getByTestId('invoice-terms')).toHaveTextContent('14 days');
    expect(screen.queryByTestId('invoice-draft-details')).not.toBeInTheDocument();
    posted.unmount();

    server.on('GET', INVOICE_URL, ok(makeDraftInvoice({ note: 'Gate 2' })));
    signIn({ user: makeUser({ id: 2, username: 'viewer', permissions: ['salesorders.view_invoice'] }), tenant: '3' });
    renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-note')).toHaveTextContent('Gate 2');
    expect(screen.queryByTestId('invoice-draft-details')).not.toBeInTheDocument();
    // a draft has no e-invoice yet
    expect(screen.queryByTestId('invoice-ubl')).not.toBeInTheDocument();
    expect(screen.queryByTestId('post-invoice')).not.toBeInTheDocument();
  });
});
