import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { CompanySettings } from '../api/companySettings';

const URL = '/api/tenants/current/';

function settings(overrides: Partial<CompanySettings> = {}): CompanySettings {
  return {
    id: '3',
    name: 'EuroTrade Goods BV',
    code: 'eurotrade',
    legal_name: 'EuroTrade Goods B.V.',
    address: '',
    country: 'NL',
    eori_number: '',
    vat_number: '',
    email: '',
    phone: '',
    operator_role: 'OPERATOR',
    represented_operator_name: '',
    represented_operator_address: '',
    represented_operator_country: '',
    represented_operator_eori: '',
    represented_operator_vat: '',
    represented_operator_email: '',
    represented_operator_phone: '',
    eudr_import_role: 'operator',
    eudr_purchase_role: 'none',
    eudr_primary_role: 'none',
    eudr_is_sme: false,
    simplified_declaration_id: '',
    registration_number: '',
    iban: '',
    bic: '',
    payment_terms_days: 30,
    eudr_duties: ['file_statements'],
    missing_for_statement: ['address', 'identifier'],
    can_edit: true,
    updated_at: '2026-11-22T10:00:00Z',
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'EuroTrade Goods BV' }]));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ tenant: '3', user: makeUser({ name: 'Ada' }) });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

/** Typing letter by letter into Ant Design inputs is slow in jsdom: focus and paste. */
async function fill(user: ReturnType<typeof userEvent.setup>, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

function bodyOf(method: string): Record<string, unknown> {
  const request = server.requests.find((r) => r.method === method && r.url.startsWith(URL));
  expect(request).toBeDefined();
  return JSON.parse(String(request?.data)) as Record<string, unknown>;
}

describe('the company settings page', () => {
  it('is reached from the user menu and lists what statements still need', async () => {
    server.on('GET', URL, ok(settings()));
    server.on('GET', '/api/common/dashboard/', ok({ counts: {} }));
    const user = userEvent.setup({ delay: null });
    const { router } = renderApp('/');
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByText('Company settings'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/company'));
    const missing = await screen.findByTestId('statement-missing');
    expect(missing).toHaveTextContent('Due diligence statements still need:');
    expect(missing).toHaveTextContent('the address');
    expect(missing).toHaveTextContent('an EORI or VAT number in a valid format');
    expect(screen.getByTestId('company-name')).toHaveTextContent('EuroTrade Goods BV');
    await waitFor(() => expect(document.title).toBe('Company settings | CartonTrace'));
  });

  it('saves the changes, shows the server spelling and that the statement data is complete', async () => {
    server.on('GET', URL, ok(settings()));
    server.on('PATCH', URL, (config) => {
      const body = JSON.parse(String(config.data)) as Record<string, string>;
      return ok(
        settings({
          ...body,
          eori_number: 'NL862345678',
          missing_for_statement: [],
        }),
      );
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    const save = await screen.findByTestId('company-settings-save');
    expect(save).toBeDisabled();
    await fill(user, screen.getByLabelText('Address'), 'Havenweg 12, 3089 JA Rotterdam');
    await fill(user, screen.getByLabelText('EORI number'), 'nl 862345678');
    expect(screen.getByLabelText('EORI number')).toHaveValue('NL 862345678');
    await user.click(save);
    expect(await screen.findByTestId('statement-ready')).toHaveTextContent('Ready for due diligence statements');
    const body = bodyOf('PATCH');
    expect(body).toMatchObject({ address: 'Havenweg 12, 3089 JA Rotterdam', eori_number: 'NL 862345678', operator_role: 'OPERATOR' });
    expect(screen.getByLabelText('EORI number')).toHaveValue('NL862345678');
    expect(screen.getByTestId('company-settings-save')).toBeDisabled();
  });

  it('checks the formats before saving and puts server field errors on their fields', async () => {
    server.on('GET', URL, ok(settings()));
    server.on(
      'PATCH',
      URL,
      fail(400, 'Please correct the highlighted fields.', 'validation_error', {
        vat_number: ['Enter the VAT number with its 2-letter country prefix, e.g. NL862345678B01.'],
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    const eori = await screen.findByLabelText('EORI number');
    await fill(user, eori, '862345678');
    await user.click(screen.getByTestId('company-settings-save'));
    expect(
      await screen.findByText('Enter the EORI number as the 2-letter country code and up to 15 letters or digits, e.g. NL862345678.'),
    ).toBeInTheDocument();
    expect(server.count('PATCH', URL)).toBe(0);

    await user.clear(eori);
    await fill(user, screen.getByLabelText('VAT number'), 'NL862345678B01');
    await user.click(screen.getByTestId('company-settings-save'));
    expect(await screen.findByText('Enter the VAT number with its 2-letter country prefix, e.g. NL862345678B01.')).toBeInTheDocument();
    expect(server.count('PATCH', URL)).toBe(1);
  });

  it('checks IBAN and BIC before saving and saves the payment details', async () => {
    server.on('GET', URL, ok(settings()));
    server.on('PATCH', URL, (config) => ok(settings(JSON.parse(String(config.data)) as Partial<CompanySettings>)));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    const payment = await screen.findByTestId('payment-details');
    expect(payment).toHaveTextContent('Invoices and payment');
    // one check digit wrong, a BIC of 4 letters
    await fill(user, within(payment).getByLabelText('IBAN'), 'NL91 ABNA 0417 1643 01');
    await fill(user, within(payment).getByLabelText('BIC'), 'abna');
    await user.click(screen.getByTestId('company-settings-save'));
    // The IBAN is validated again when the BIC is (it depends on it), and Ant Design then draws its error
    // anew: a node found a moment before may be gone, so the check is repeated until both are shown.
    await waitFor(() => {
      expect(within(payment).getByText(/this one's check digits or length do not match/)).toBeInTheDocument();
      expect(within(payment).getByText('Enter the BIC (SWIFT code) of 8 or 11 letters and digits, e.g. ABNANL2A.')).toBeInTheDocument();
    });
    expect(server.count('PATCH', URL)).toBe(0);

    await user.clear(within(payment).getByLabelText('IBAN'));
    await fill(user, within(payment).getByLabelText('IBAN'), 'nl91 abna 0417 1643 00');
    await user.clear(within(payment).getByLabelText('BIC'));
    await fill(user, within(payment).getByLabelText('BIC'), 'abnanl2a');
    await fill(user, within(payment).getByLabelText('Registration number'), 'KvK 24123456');
    await user.clear(within(payment).getByLabelText('Default payment terms'));
    await fill(user, within(payment).getByLabelText('Default payment terms'), '14');
    await user.click(screen.getByTestId('company-settings-save'));
    await waitFor(() => expect(server.count('PATCH', URL)).toBe(1));
    expect(bodyOf('PATCH')).toMatchObject({
      iban: 'NL91 ABNA 0417 1643 00',
      bic: 'ABNANL2A',
      registration_number: 'KvK 24123456',
      payment_terms_days: 14,
    });
  });

  it('saves how long the public trace may be cached', async () => {
    server.on('GET', URL, ok(settings({ public_trace_max_age: 300 })));
    server.on('PATCH', URL, (config) => ok(settings(JSON.parse(String(config.data)) as Partial<CompanySettings>)));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    const field = await screen.findByLabelText('Public trace cache time');
    expect(field).toHaveValue('300');
    await user.clear(field);
    await fill(user, field, '60');
    await user.click(screen.getByTestId('company-settings-save'));
    await waitFor(() => expect(server.count('PATCH', URL)).toBe(1));
    expect(bodyOf('PATCH')).toMatchObject({ public_trace_max_age: 60 });
  });

  it('asks for the IBAN when only a BIC is given', async () => {
    server.on('GET', URL, ok(settings()));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    const payment = await screen.findByTestId('payment-details');
    await fill(user, within(payment).getByLabelText('BIC'), 'ABNANL2A');
    await user.click(screen.getByTestId('company-settings-save'));
    await waitFor(() => expect(within(payment).getByText('Enter the IBAN as well: a BIC alone does not say where to pay.')).toBeInTheDocument());
    expect(server.count('PATCH', URL)).toBe(0);
  });

  it('asks for the represented operator when the company files as a representative', async () => {
    server.on('GET', URL, ok(settings()));
    server.on('PATCH', URL, (config) => ok(settings(JSON.parse(String(config.data)) as Partial<CompanySettings>)));
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    await screen.findByTestId('company-settings-form');
    expect(screen.queryByTestId('represented-operator')).not.toBeInTheDocument();
    await user.click(screen.getByText('Authorised representative'));
    const represented = await screen.findByTestId('represented-operator');
    await user.click(screen.getByTestId('company-settings-save'));
    // name, country, street, postal code and city (the one-line full address is optional); waited for as
    // a whole: the first message may show before the others on a busy machine
    await waitFor(() =>
      expect(within(represented).getAllByText('Required when the company files as an authorised representative.')).toHaveLength(5),
    );
    expect(within(represented).getByText("Enter the represented operator's EORI or VAT number.")).toBeInTheDocument();
    expect(server.count('PATCH', URL)).toBe(0);

    await fill(user, within(represented).getByLabelText('Name'), 'Shenzhen Carton Trading Ltd');
    await fill(user, within(represented).getByLabelText('Street and number'), '8 Keji Road');
    await fill(user, within(represented).getByLabelText('Postal code'), '518057');
    await fill(user, within(represented).getByLabelText('City'), 'Shenzhen');
    await user.click(within(represented).getByLabelText('Country'));
    await fill(user, within(represented).getByLabelText('Country'), 'China');
    await user.click(await screen.findByText('China (CN)'));
    await fill(user, within(represented).getByLabelText('VAT number'), 'CN91440300MA5');
    await user.click(screen.getByTestId('company-settings-save'));
    await waitFor(() => expect(server.count('PATCH', URL)).toBe(1));
    expect(bodyOf('PATCH')).toMatchObject({
      operator_role: 'REPRESENTATIVE_OPERATOR',
      represented_operator_name: 'Shenzhen Carton Trading Ltd',
      represented_operator_street: '8 Keji Road',
      represented_operator_postal_code: '518057',
      represented_operator_city: 'Shenzhen',
      represented_operator_country: 'CN',
      represented_operator_vat: 'CN91440300MA5',
    });
  });

  it('asks only what the EUDR role needs and saves the roles', async () => {
    server.on('GET', URL, ok(settings()));
    server.on('PATCH', URL, (config) =>
      ok(settings({ ...(JSON.parse(String(config.data)) as Partial<CompanySettings>), eudr_duties: ['keep_supplier_references'] })),
    );
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/company');
    await screen.findByTestId('company-settings-form');
    expect(screen.getByTestId('eudr-duties')).toHaveTextContent('Files a due diligence statement before placing goods.');
    expect(screen.getByText('Authorised representative')).toBeInTheDocument();
    expect(screen.queryByTestId('simplified-declaration-id')).not.toBeInTheDocument();

    // a trader that does not import: no filing role to choose
    await user.click(screen.getByLabelText('Goods it imports or first places on the EU market'));
    await user.click(await screen.findByText('Does not import'));
    await waitFor(() => expect(screen.queryByText('Authorised representative')).not.toBeInTheDocument());
    await user.click(screen.getByLabelText('Goods it buys from an operator in the EU'));
    await user.click(await screen.findByText("Downstream operator or trader: keeps the supplier's reference numbers"));

    // a micro or small primary operator gives its simplified declaration, checked like the server
    await user.click(screen.getByLabelText('What it produces itself'));
    await user.click(await screen.findByText('Micro or small primary operator: one-time simplified declaration'));
    await fill(user, await screen.findByTestId('simplified-declaration-id'), '26NLX7TVCZAQ2S');
    await user.click(screen.getByTestId('company-settings-save'));
    expect(await screen.findByText(/14 characters starting with S/)).toBeInTheDocument();
    expect(server.count('PATCH', URL)).toBe(0);
    await user.clear(screen.getByTestId('simplified-declaration-id'));
    await fill(user, screen.getByTestId('simplified-declaration-id'), 's26frnmnbsa96q');
    await user.click(screen.getByTestId('eudr-is-sme'));
    await user.click(screen.getByTestId('company-settings-save'));
    await waitFor(() => expect(server.count('PATCH', URL)).toBe(1));
    expect(bodyOf('PATCH')).toMatchObject({
      eudr_import_role: 'none',
      eudr_purchase_role: 'downstream',
      eudr_primary_role: 'micro_small_primary',
      eudr_is_sme: true,
      simplified_declaration_id: 'S26FRNMNBSA96Q',
    });
    expect(await screen.findByTestId('eudr-duties')).toHaveTextContent("Keeps the suppliers' reference numbers for 5 years.");
  });

  it('asks before leaving with unsaved changes', async () => {
    server.on('GET', URL, ok(settings()));
    const user = userEvent.setup({ delay: null });
    const { router } = renderApp('/settings/company');
    await fill(user, await screen.findByLabelText('Address'), 'Havenweg 12');
    await user.click(screen.getByTestId('user-menu'));
    await user.click(await screen.findByText('Profile'));
    // one confirm dialog (Ant Design writes its title twice: visible and for assistive technology)
    expect(await screen.findByRole('dialog')).toHaveTextContent('Leave without saving?');
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/settings/company');
    expect(screen.getByLabelText('Address')).toHaveValue('Havenweg 12');
  });

  it('is read-only for users who may not change the settings', async () => {
    server.on('GET', URL, ok(settings({ can_edit: false, missing_for_statement: [] })));
    renderApp('/settings/company');
    expect(await screen.findByTestId('company-read-only')).toBeInTheDocument();
    expect(screen.getByLabelText('Legal name')).toBeDisabled();
    expect(screen.queryByTestId('company-settings-save')).not.toBeInTheDocument();
  });

  it('shows the server refusal for accounts that cannot open the settings', async () => {
    server.on('GET', URL, fail(403, 'Your account type cannot use this area.', 'permission_denied'));
    renderApp('/settings/company');
    expect(await screen.findByText('Your account type cannot use this area.')).toBeInTheDocument();
  });
});
