import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, created, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { DueDiligenceOverview } from '../../api/dueDiligence';
import { deliveryFixture } from '../../test/fixtures';
import { renderAt } from '../../test/harness';
import { DueDiligenceCard } from './DueDiligenceCard';

const URL = '/api/duediligence/deliveries/12/';
const PERMISSIONS = ['duediligence.add_riskassessment', 'duediligence.view_riskassessment', 'eudr.change_rawmaterialdelivery'];

function overview(overrides: Partial<DueDiligenceOverview> = {}): DueDiligenceOverview {
  return {
    delivery: 12,
    benchmark: 'Commission Implementing Regulation (EU) 2025/1093 (2025-05-22)',
    countries: [{ country_code: 'BR', level: 'standard' }],
    simplified: false,
    assessment: null,
    assessments: [],
    override: null,
    can_override: false,
    blockers: [{ code: 'assessment_missing', message: 'No risk assessment: a country of production is not low risk.' }],
    can_file: false,
    concerns: [],
    hold: null,
    archives: [],
    forest: [],
    forest_flagged: false,
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser({ permissions: PERMISSIONS }) });
});

afterEach(() => server.restore());

const renderCard = () => renderAt('/x', '/x', <DueDiligenceCard material={deliveryFixture()} />);

describe('the due diligence card', () => {
  it('shows each country with its benchmark level and what blocks the statement', async () => {
    server.on('GET', URL, ok(overview()));
    renderCard();
    expect(await screen.findByTestId('dd-country-BR')).toHaveTextContent('Standard risk');
    expect(screen.getByTestId('dd-blockers')).toHaveTextContent('No risk assessment');
    expect(screen.queryByTestId('dd-override')).not.toBeInTheDocument();
  });

  it('says when simplified due diligence applies', async () => {
    server.on('GET', URL, ok(overview({ countries: [{ country_code: 'CN', level: 'low' }], simplified: true, blockers: [], can_file: true })));
    renderCard();
    expect(await screen.findByTestId('dd-simplified')).toBeInTheDocument();
    expect(screen.getByTestId('dd-can-file')).toBeInTheDocument();
  });

  it('shows an error with a retry when the overview fails', async () => {
    server.on('GET', URL, fail(500, 'Server error', 'server_error'));
    renderCard();
    expect(await screen.findByRole('button', { name: /retry|try again/i })).toBeInTheDocument();
  });

  it('records an assessment with every criterion and its evidence', async () => {
    const user = userEvent.setup({ delay: null });
    const ASSESS = `${URL}assessments/`;
    server.on('GET', URL, ok(overview()));
    server.on('POST', ASSESS, created({ id: 1 }));
    renderCard();
    await user.click(await screen.findByTestId('dd-assess'));
    await screen.findByTestId('criterion-a');
    await user.click(screen.getByTestId('assessment-save'));
    expect((await screen.findAllByText('Give the evidence.')).length).toBeGreaterThan(0);
    expect(server.count('POST', ASSESS)).toBe(0);
    for (const code of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n']) {
      await user.type(screen.getByTestId(`evidence-${code}`), `Report ${code}`);
    }
    await user.click(screen.getByTestId('assessment-save'));
    await waitFor(() => expect(server.count('POST', ASSESS)).toBe(1));
    const body = JSON.parse(server.requests.find((r) => r.url === ASSESS)?.data as string) as { criteria: { code: string; finding: string; evidence: string }[]; conclusion: string };
    expect(body.criteria).toHaveLength(14);
    expect(body.criteria[5]).toEqual({ code: 'f', finding: 'no_risk', evidence: 'Report f' });
    expect(body.conclusion).toBe('negligible');
    expect(await screen.findByText('Risk assessment recorded')).toBeInTheDocument();
  });

  it("shows the server's mitigation refusal under the measures", async () => {
    const user = userEvent.setup({ delay: null });
    const ASSESS = `${URL}assessments/`;
    server.on('GET', URL, ok(overview()));
    server.on('POST', ASSESS, fail(400, 'Please correct the highlighted fields.', 'validation_error', { mitigation: ['Record the mitigation measures.'] }));
    renderCard();
    await user.click(await screen.findByTestId('dd-assess'));
    for (const code of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n']) {
      await user.type(screen.getByTestId(`evidence-${code}`), 'x');
    }
    await user.click(screen.getByTestId('assessment-save'));
    expect(await screen.findByText('Record the mitigation measures.')).toBeInTheDocument();
    expect(screen.getByTestId('mitigation-errors')).toHaveTextContent('Record the mitigation measures.');
  });

  it('shows the five-year hold and archives only with a reason', async () => {
    const user = userEvent.setup({ delay: null });
    const ARCHIVE = `${URL}archive/`;
    server.on(
      'GET',
      URL,
      ok(overview({ hold: { reason: 'recorded', reference_number: '26NLQ8M3ZP41TK', started_at: '2026-11-26T10:00:00Z', keep_until: '2031-11-30T10:00:00Z' } })),
    );
    server.on('POST', ARCHIVE, created({ id: 3 }));
    renderCard();
    expect(await screen.findByTestId('dd-kept')).toHaveTextContent('26NLQ8M3ZP41TK');
    await user.click(screen.getByTestId('dd-archive'));
    const reason = await screen.findByTestId('dd-archive-dialog-reason');
    await user.type(reason, 'Supplier closed');
    await user.click(screen.getByTestId('dd-archive-dialog-ok'));
    await waitFor(() => expect(server.count('POST', ARCHIVE)).toBe(1));
    expect(JSON.parse(server.requests.find((r) => r.url === ARCHIVE)?.data as string)).toEqual({ reason: 'Supplier closed' });
  });

  it('shows the forest check per plot with its layer, flags loss after 2020 and draws the plot over the layer', async () => {
    const user = userEvent.setup({ delay: null });
    Object.assign(window.URL, { createObjectURL: vi.fn(() => 'blob:map'), revokeObjectURL: vi.fn() });
    const base = { plot_id: '', layer_source: 'JRC', layer_date: '2023-10-01', cells: 200, computed_at: '2026-11-26T10:00:00Z' };
    server.on(
      'GET',
      URL,
      ok(
        overview({
          countries: [{ country_code: 'CN', level: 'low' }],
          simplified: true,
          forest_flagged: true,
          blockers: [{ code: 'forest_loss', message: 'Tree cover was lost after 2020 on plot 2 (2022, Tree cover loss).' }],
          forest: [
            { ...base, id: 7, plot_index: 0, layer_id: 1, layer_kind: 'forest_2020', layer_name: 'JRC GFC2020', forest_share: 0.5, loss_cells_after_cutoff: 0, loss_years: [], loss_after_cutoff: false },
            { ...base, id: 8, plot_index: 1, layer_id: 2, layer_kind: 'loss_year', layer_name: 'Tree cover loss', forest_share: null, loss_cells_after_cutoff: 100, loss_years: [2022], loss_after_cutoff: true },
          ],
        }),
      ),
    );
    server.on('GET', `${URL}forest/8/map/`, { status: 200, headers: { 'Content-Type': 'image/png' }, data: new Blob(['png']) });
    renderCard();
    expect(await screen.findByTestId('dd-forest-7')).toHaveTextContent('Plot 1');
    expect(screen.getByTestId('dd-forest-7')).toHaveTextContent('Forest in 2020: 50 %');
    expect(screen.getByTestId('dd-forest-7')).toHaveTextContent('JRC GFC2020');
    expect(screen.getByTestId('dd-forest-8')).toHaveTextContent('Tree cover lost after 2020: 100 cells (2022)');
    expect(screen.getByTestId('dd-forest-flagged')).toBeInTheDocument();
    expect(screen.getByTestId('dd-blockers')).toHaveTextContent('plot 2');
    await user.click(screen.getByTestId('dd-forest-map-8'));
    expect(await screen.findByAltText('Plot 2 · Tree cover loss')).toHaveAttribute('src', 'blob:map');
    expect(server.count('GET', `${URL}forest/8/map/`)).toBe(1);
  });

  it('says when no forest layer covers the plots', async () => {
    server.on('GET', URL, ok(overview()));
    renderCard();
    expect(await screen.findByTestId('dd-forest-none')).toBeInTheDocument();
    expect(screen.queryByTestId('dd-forest-flagged')).not.toBeInTheDocument();
  });
});
