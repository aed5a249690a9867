import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { queryClient } from '@/api/queryClient';
import { isAuthenticated } from '@/shared/session/sessionStore';
import { runSignedInStartup } from '@/shared/startup';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import { createAppRouter } from './router';
import { FullPageSpinner } from './routing/FullPageSpinner';

const router = createAppRouter();

/**
 * Providers, then start-up: with a session, the tenant is settled (and content types preloaded)
 * before any page asks the server for tenant data.
 */
export function App() {
  const [ready, setReady] = useState(() => !isAuthenticated());

  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    void runSignedInStartup().finally(() => {
      if (!cancelled) setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [ready]);

  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {ready ? <RouterProvider router={router} /> : <FullPageSpinner />}
      </ThemeProvider>
    </QueryClientProvider>
  );
}
