import { queryClient } from '@/api/queryClient';
import { isAuthenticated } from '@/shared/session/sessionStore';
import { createContentTypeRegistry } from './contentTypes';

/** The app's content-type registry, on the app's query cache. */
export const contentTypes = createContentTypeRegistry(queryClient);

/** Start-up step three: preload after sign-in; skipped when signed out. Failures are only logged. */
export async function preloadContentTypes(): Promise<void> {
  if (!isAuthenticated()) return;
  try {
    await contentTypes.preload();
  } catch (error) {
    console.error('Content types could not be loaded; they will be loaded when first needed.', error);
  }
}
