/**
 * Service worker registration (vite-plugin-pwa, registerType "prompt"). Its states are announced as
 * window events (docs/specification.md section 4): `sw:need-refresh` when a new version waits, `sw:offline-ready`
 * when the app shell is cached. The reload prompt listens for them.
 */
import { registerSW } from 'virtual:pwa-register';

export const SW_NEED_REFRESH = 'sw:need-refresh';
export const SW_OFFLINE_READY = 'sw:offline-ready';

let updateServiceWorker: ((reloadPage?: boolean) => Promise<void>) | null = null;

/** What was announced before any prompt listened (the prompt mounts with the layouts). */
export const announced = { needRefresh: false, offlineReady: false };

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  updateServiceWorker = registerSW({
    onNeedRefresh() {
      announced.needRefresh = true;
      window.dispatchEvent(new CustomEvent(SW_NEED_REFRESH));
    },
    onOfflineReady() {
      announced.offlineReady = true;
      window.dispatchEvent(new CustomEvent(SW_OFFLINE_READY));
    },
    onRegisterError(error: unknown) {
      console.error('Service worker registration failed.', error);
    },
  });
}

/** Activates the waiting version and reloads the page. */
export async function applyUpdate(): Promise<void> {
  if (updateServiceWorker) await updateServiceWorker(true);
  else window.location.reload();
}
