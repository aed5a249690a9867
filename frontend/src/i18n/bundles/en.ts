/** The English namespaces of a first page (../namespaces.ts), loaded at start-up or on a switch to English. */
import type { Bundle } from '../resources';
import { namespacesOf } from '../resources';

const bundle: Bundle = namespacesOf(
  import.meta.glob('../en/{common,nav,auth,errors,home,tenant,theme}.json', { eager: true, import: 'default' }),
);
export default bundle;
