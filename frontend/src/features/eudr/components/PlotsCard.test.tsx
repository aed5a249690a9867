import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import { deliveryFixture, PLOTS } from '../test/fixtures';
import { renderAt } from '../test/harness';
import { PlotsCard } from './PlotsCard';

vi.mock('@/shared/map/LazyPlotMap', () => import('../test/mapStub'));

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

describe('the plots card', () => {
  it('puts the validated plots on the map and lists the problems per plot', async () => {
    const user = userEvent.setup({ delay: null });
    server.on(
      'POST',
      '/api/eudr/geojson/validate/',
      ok({
        valid: true,
        error_count: 0,
        warning_count: 3,
        problems: [
          { feature: 1, code: 'point_area', message: 'A point stands for at most 4 ha.', severity: 'warning', position: null },
          { feature: null, code: 'crs', message: 'No coordinate reference system given.', severity: 'warning', position: null },
          { feature: 1, code: 'properties', message: 'ProductionPlace is missing.', severity: 'warning', position: null },
        ],
        feature_collection: PLOTS,
        areas_ha: [1.25, 3.2],
        total_area_ha: 4.45,
      }),
    );
    renderAt('/x', '/x', <PlotsCard material={deliveryFixture({ location_geojson: PLOTS })} />);

    await screen.findByTestId('problems-plot-2');
    expect(screen.getByTestId('map-plot-1')).toHaveAttribute('data-area', '1.25');
    expect(screen.getByText('2 plots')).toBeInTheDocument();
    expect(screen.getByTestId('map-plot-2')).toHaveAttribute('data-problems', '2');
    const second = screen.getByTestId('problems-plot-2');
    expect(second).toHaveTextContent('A point stands for at most 4 ha.');
    expect(second).toHaveTextContent('ProductionPlace is missing.');
    expect(screen.getByTestId('problems-file')).toHaveTextContent('No coordinate reference system given.');
    expect(screen.queryByTestId('problems-plot-1')).not.toBeInTheDocument();

    // A plot's name shows it on the map.
    await user.click(within(second).getByRole('button', { name: /Plot 2/ }));
    expect(screen.getByTestId('plot-map')).toHaveAttribute('data-selected', '1');
  });

  it('says when there are no plots', () => {
    renderAt('/x', '/x', <PlotsCard material={deliveryFixture()} />);
    expect(screen.getByText('No plots entered yet')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });
});
