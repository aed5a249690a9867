import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { isChunkLoadError, PageErrorPage } from './PageErrorPage';
import { RouteErrorPage } from './RouteErrorPage';

function renderFailing(error: Error, root = false) {
  initI18n('en', allResources());
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: root ? <RouteErrorPage /> : <PageErrorPage />,
        lazy: () => Promise.reject(error),
      },
    ],
    { initialEntries: ['/'] },
  );
  return render(<RouterProvider router={router} />);
}

function goOffline(offline: boolean) {
  vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(!offline);
}

afterEach(() => vi.restoreAllMocks());

describe('a page that cannot be shown, inside its layout', () => {
  it('offline, a page whose code this device never loaded says it is not on this device yet', async () => {
    goOffline(true);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderFailing(new TypeError('Failed to fetch dynamically imported module: /assets/Page-abc.js'));
    expect(await screen.findByTestId('page-offline')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'This page is not on this device yet' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' }).hasAttribute('disabled')).toBe(true);
  });

  it('offline, the whole app\'s error page says the same when a layout\'s code never arrived', async () => {
    goOffline(true);
    renderFailing(new TypeError('Failed to fetch dynamically imported module: /assets/ShellLayout-abc.js'), true);
    expect(await screen.findByTestId('page-offline')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'This page is not on this device yet' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' }).hasAttribute('disabled')).toBe(true);
  });

  it('online, a crash says something went wrong and offers a reload', async () => {
    goOffline(false);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderFailing(new Error('boom'));
    expect(await screen.findByTestId('page-crash')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' }).hasAttribute('disabled')).toBe(false);
    expect(logged).toHaveBeenCalled();
  });

  it('knows the browsers\' words for a module that could not be fetched', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: x'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('not an error')).toBe(false);
  });
});
