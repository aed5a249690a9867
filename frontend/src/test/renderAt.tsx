import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';

/** Renders an element at a path with the providers the app gives it (query client, antd App, router). */
export function renderAt(path: string, pattern: string, element: ReactNode) {
  initI18n('en', allResources());
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: pattern, element }, { path: '*', element: null }], { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={client}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
  return { router, client, ...view };
}
