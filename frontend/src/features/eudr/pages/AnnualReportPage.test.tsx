import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { AnnualFigures } from '../api/forestLayers';
import { renderAt } from '../test/harness';
import AnnualReportPage from './AnnualReportPage';

const URL = '/api/duediligence/annual-report/';
const YEAR = new Date().getFullYear();

function figures(year: number, overrides: Partial<AnnualFigures> = {}): AnnualFigures {
  return {
    year,
    statements: ['26NLQ8M3ZP41TA', '26NLQ8M3ZP41TB'],
    statements_filed: 1,
    statements_recorded: 1,
    deliveries: 5,
    countries: [
      { country_code: 'BR', statements: 1, level: 'standard' },
      { country_code: 'CN', statements: 1, level: 'low' },
    ],
    assessments: { negligible: 2, not_negligible: 1 },
    concerns_raised: 1,
    concerns_resolved: 0,
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser({ permissions: ['duediligence.view_riskassessment'] }) });
});

afterEach(() => {
  server.restore();
  vi.restoreAllMocks();
});

describe('the annual report page', () => {
  it("shows the year's figures, and another year's when chosen", async () => {
    const user = userEvent.setup({ delay: null });
    server.on('GET', `${URL}figures/`, (config) => {
      const year = Number(new window.URL(config.url, 'http://x').searchParams.get('year'));
      return ok(year === YEAR ? figures(YEAR) : figures(year, { statements: [], statements_filed: 0, statements_recorded: 0, countries: [] }));
    });
    renderAt('/x', '/x', <AnnualReportPage />);
    expect(await screen.findByTestId('report-filed')).toHaveTextContent('1');
    expect(screen.getByTestId('report-statements')).toHaveTextContent('26NLQ8M3ZP41TA');
    expect(screen.getByText('Brazil')).toBeInTheDocument();
    expect(screen.getByText('Standard risk')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Year' }));
    await user.click(await screen.findByTitle(String(YEAR - 1)));
    await waitFor(() => expect(screen.getByTestId('report-filed')).toHaveTextContent('0'));
    expect(screen.getAllByText('No statement in this year.').length).toBeGreaterThan(0);
  });

  it('downloads the PDF in Chinese', async () => {
    const user = userEvent.setup({ delay: null });
    const created = vi.fn(() => 'blob:report');
    Object.assign(window.URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    server.on('GET', `${URL}figures/`, ok(figures(YEAR)));
    server.on('GET', URL, { status: 200, headers: { 'Content-Disposition': `inline; filename="due-diligence-${YEAR}-zh.pdf"` }, data: new Blob(['%PDF']) });
    renderAt('/x', '/x', <AnnualReportPage />);
    await user.click(await screen.findByTestId('report-pdf-zh'));
    await waitFor(() => expect(server.count('GET', URL)).toBe(1));
    const asked = server.requests.find((r) => r.url.startsWith(`${URL}?`));
    expect(asked?.url).toContain(`year=${YEAR}`);
    expect(asked?.url).toContain('language=zh');
    await waitFor(() => expect(created).toHaveBeenCalled());
  });

  it('offers a retry when the figures fail', async () => {
    server.on('GET', `${URL}figures/`, fail(500, 'Server error', 'server_error'));
    renderAt('/x', '/x', <AnnualReportPage />);
    expect(await screen.findByRole('button', { name: /retry|try again/i })).toBeInTheDocument();
  });
});
