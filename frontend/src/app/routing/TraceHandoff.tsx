import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { browserLocation } from '@/api/hardNavigate';
import { FullPageSpinner } from './FullPageSpinner';

/** The carton trace page is a separate entry (trace.html): load it with a full page request. */
export function TraceHandoff() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    browserLocation.assign(`${pathname}${search}`);
  }, [pathname, search]);
  return <FullPageSpinner />;
}
