/** The Chinese namespaces of a first page (../namespaces.ts), loaded at start-up or on a switch to Chinese. */
import type { Bundle } from '../resources';
import { namespacesOf } from '../resources';

const bundle: Bundle = namespacesOf(
  import.meta.glob('../zh/{common,nav,auth,errors,home,tenant,theme}.json', { eager: true, import: 'default' }),
);
export default bundle;
