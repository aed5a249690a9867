/** Every English namespace, as one chunk loaded at start-up or on a switch to English. */
import type { Bundle } from '../resources';
import { namespacesOf } from '../resources';

const bundle: Bundle = namespacesOf(import.meta.glob('../en/*.json', { eager: true, import: 'default' }));
export default bundle;
