import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, created, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { ForestLayer } from '../api/forestLayers';
import { renderAt } from '../test/harness';
import ForestLayersPage from './ForestLayersPage';

const URL = '/api/duediligence/forest-layers/';
const ADMIN = ['duediligence.view_forestlayer', 'duediligence.manage_forestlayer'];

function layer(overrides: Partial<ForestLayer> = {}): ForestLayer {
  return {
    id: 1,
    name: 'JRC GFC2020',
    kind: 'forest_2020',
    source: 'JRC GFC2020 v2',
    layer_date: '2023-10-01',
    file_name: 'gfc2020.tif',
    size: 2048,
    width: 100,
    height: 100,
    crs: 'EPSG:4326',
    bounds: [116, 39.9, 116.1, 40],
    status: 'ready',
    progress: 100,
    plots_done: 3,
    message: '',
    uploaded_by: 'eudr-admin',
    uploaded_at: '2026-11-26T10:00:00Z',
    processed_at: '2026-11-26T10:01:00Z',
    progress_at: '2026-11-26T10:01:00Z',
    stale: false,
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser({ permissions: ADMIN }) });
});

afterEach(() => server.restore());

const renderPage = () => renderAt('/x', '/x', <ForestLayersPage pollMs={10} />);

describe('the forest layers page', () => {
  it('lists the layers and reads them again while one is processed', async () => {
    let calls = 0;
    server.on('GET', URL, () => {
      calls += 1;
      return ok([layer({ status: calls === 1 ? 'processing' : 'ready', progress: calls === 1 ? 40 : 100 })]);
    });
    renderPage();
    const status = await screen.findByTestId('layer-status-1');
    expect(status).toHaveTextContent('Processing');
    expect(within(status).getByRole('progressbar')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('layer-status-1')).toHaveTextContent('Ready'));
    expect(screen.getByTestId('layer-status-1')).toHaveTextContent('3 plots checked');
    expect(screen.getByText(/JRC GFC2020 v2 ·/)).toBeInTheDocument();
    const settled = calls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(settled); // no more polling once every layer is ready
  });

  it('says when there is no layer yet, and offers a retry when the list fails', async () => {
    server.on('GET', URL, ok([]));
    const first = renderPage();
    expect(await screen.findByText(/No forest layer yet/)).toBeInTheDocument();
    first.unmount();
    server.on('GET', URL, fail(500, 'Server error', 'server_error'));
    renderPage();
    expect(await screen.findByRole('button', { name: /retry|try again/i })).toBeInTheDocument();
  });

  it('uploads a GeoTIFF with its name, kind, source and date', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('GET', URL, ok([]));
    server.on('POST', URL, (config) => {
      config.onUploadProgress?.({ loaded: 5, total: 10 });
      return created(layer({ status: 'uploaded' }));
    });
    renderPage();
    await user.click(await screen.findByTestId('layer-upload'));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(input!, new File(['II*'], 'gfc2020.tif', { type: 'image/tiff' }));
    await user.type(screen.getByTestId('layer-name'), 'JRC GFC2020');
    await user.type(screen.getByTestId('layer-source'), 'JRC GFC2020 v2');
    await user.type(screen.getByTestId('layer-date'), '2023-10-01');
    await user.click(screen.getByTestId('layer-upload-ok'));
    await waitFor(() => expect(server.count('POST', URL)).toBe(1));
    const form = server.requests.find((r) => r.method === 'POST')?.data as FormData;
    expect((form.get('file') as File).name).toBe('gfc2020.tif');
    expect(form.get('name')).toBe('JRC GFC2020');
    expect(form.get('kind')).toBe('forest_2020');
    expect(form.get('source')).toBe('JRC GFC2020 v2');
    expect(form.get('layer_date')).toBe('2023-10-01');
    expect(await screen.findByText('Layer uploaded')).toBeInTheDocument();
  });

  it("shows the server's refusal of a file that is not a raster", async () => {
    const user = userEvent.setup({ delay: null });
    server.on('GET', URL, ok([]));
    server.on('POST', URL, fail(400, 'This file is not a GeoTIFF raster: upload the layer as a georeferenced GeoTIFF.', 'forest_layer_invalid'));
    renderPage();
    await user.click(await screen.findByTestId('layer-upload'));
    await user.click(screen.getByTestId('layer-upload-ok'));
    expect(await screen.findByText('Choose the GeoTIFF file.')).toBeInTheDocument();
    expect(server.count('POST', URL)).toBe(0);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(input!, new File(['west,south\n1,2\n'], 'plots.tif', { type: 'image/tiff' }));
    await user.type(screen.getByTestId('layer-name'), 'Wrong');
    await user.type(screen.getByTestId('layer-date'), '2023-10-01');
    await user.click(screen.getByTestId('layer-upload-ok'));
    await waitFor(() => expect(server.count('POST', URL)).toBe(1));
    expect(await screen.findByTestId('layer-upload-error')).toHaveTextContent('not a GeoTIFF raster');
  });

  it('asks before deleting and shows why a layer is kept', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('GET', URL, ok([layer()]));
    server.on('DELETE', `${URL}1/`, fail(409, 'Forest check results of a kept record rest on this layer.', 'forest_layer_in_use'));
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const buttons = await screen.findAllByRole('button', { name: 'Delete' });
    expect(buttons.length).toBe(2); // the row's and the confirmation's
    await user.click(buttons[1]);
    await waitFor(() => expect(server.count('DELETE', `${URL}1/`)).toBe(1));
    expect(await screen.findByText(/kept record rest on this layer/)).toBeInTheDocument();
  });

  it('offers no upload or delete without the permission', async () => {
    signIn({ tenant: '3', user: makeUser({ permissions: ['duediligence.view_forestlayer'] }) });
    server.on('GET', URL, ok([layer()]));
    renderPage();
    await screen.findByTestId('layer-status-1');
    expect(screen.queryByTestId('layer-upload')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('processes a failed or stopped layer again', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('GET', URL, ok([layer({ status: 'failed', message: 'The layer could not be read: gone' }), layer({ id: 2, status: 'processing', progress: 40, stale: true }), layer({ id: 3 })]));
    server.on('POST', `${URL}1/process-again/`, ok(layer({ status: 'uploaded' })));
    renderPage();
    expect(await screen.findByTestId('layer-status-1')).toHaveTextContent('could not be read');
    expect(screen.getByTestId('layer-status-2')).toHaveTextContent('Stopped');
    expect(screen.getByTestId('layer-again-2')).toBeInTheDocument();
    expect(screen.queryByTestId('layer-again-3')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('layer-again-1'));
    await waitFor(() => expect(server.count('POST', `${URL}1/process-again/`)).toBe(1));
    expect(await screen.findByText('The layer is processed again')).toBeInTheDocument();
  });
});
