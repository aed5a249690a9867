import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '@/api/queryClient';
import { routes } from '@/app/router';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';

/** Renders the real route table at `path` with the app's providers (`queryClient`: to make the page
 * read again, as another write or a reconnect would). */
export function renderApp(path: string) {
  initI18n('en', allResources());
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { router, queryClient, ...view };
}
