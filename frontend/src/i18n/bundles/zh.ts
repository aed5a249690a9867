/** Every Chinese namespace, as one chunk loaded at start-up or on a switch to Chinese. */
import type { Bundle } from '../resources';
import { namespacesOf } from '../resources';

const bundle: Bundle = namespacesOf(import.meta.glob('../zh/*.json', { eager: true, import: 'default' }));
export default bundle;
