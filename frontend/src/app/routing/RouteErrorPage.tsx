import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import { RouteProblem } from './PageErrorPage';
import styles from './routing.module.css';

/**
 * A page crashed or its code could not be loaded (e.g. after an update): say so and offer a reload, on the
 * whole page (the layouts' own pages use PageErrorPage inside the layout). Offline, code the device never
 * loaded (a layout's, before its first page arrived) says so instead; the reload waits for the connection.
 * Deliberately light (no Result illustrations): it is part of the entry bundle.
 */
export function RouteErrorPage() {
  return (
    <div className={`${CSS_VAR_CLASS} ${styles.fullPage}`}>
      <RouteProblem />
    </div>
  );
}
