/** Every other English namespace (the features' texts): loaded with the first feature page. */
import type { Bundle } from '../resources';
import { namespacesOf } from '../resources';

const bundle: Bundle = namespacesOf(
  import.meta.glob(['../en/*.json', '!../en/{common,nav,auth,errors,home,tenant,theme}.json'], {
    eager: true,
    import: 'default',
  }),
);
export default bundle;
