import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { registerServiceWorker } from '@/app/pwa/registerServiceWorker';
import { keepScrollRegionsReachable } from '@/shared/a11y/scrollRegions';
import { initI18n, loadLanguage, resolveInitialLanguage } from '@/i18n';
import { listenForInstallPrompt } from '@/shared/hooks/useInstallPrompt';
import { applyThemeToDocument, loadThemeState } from '@/shared/theme/themeConfig';
import './styles/global.css';

applyThemeToDocument(loadThemeState());
listenForInstallPrompt();
keepScrollRegionsReachable();
if (import.meta.env.PROD) registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root: HTMLElement = container;

// Start-up step one: the language, whose texts are loaded before the first render (the tenant and
// content types follow in <App>).
const language = resolveInitialLanguage();
function start(bundle: Awaited<ReturnType<typeof loadLanguage>>): void {
  initI18n(language, { [language]: bundle }, { lazy: true });
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
loadLanguage(language).then(start, (error: unknown) => {
  // Offline before the texts were ever cached: start anyway rather than show a blank page.
  console.error('The texts could not be loaded.', error);
  start({});
});
