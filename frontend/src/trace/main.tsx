/**
 * Entry of the public carton trace page (trace.html, served for /eudrtrace/*): plain React and CSS,
 * no Ant Design, no Leaflet, so a phone on a slow network shows the origin fast (docs/design.md section 10).
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { STORAGE_KEYS } from '@/shared/session/storageKeys';
import '@/shared/theme/trace.css';
import type { TraceLanguage } from './format';
import { TracePage } from './TracePage';
import { traceLanguage, traceText } from './traceText';

function storedLanguage(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    return null;
  }
}

function applyLanguage(language: TraceLanguage) {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

function TraceApp() {
  const [language, setLanguage] = useState<TraceLanguage>(() => traceLanguage(storedLanguage(), navigator.language));
  applyLanguage(language);
  const choose = (next: TraceLanguage) => {
    try {
      window.localStorage.setItem(STORAGE_KEYS.language, next);
    } catch {
      // private mode: the choice lasts for this page only
    }
    setLanguage(next);
  };
  return <TracePage text={traceText(language)} language={language} onLanguage={choose} />;
}

const container = document.getElementById('trace-root');
if (!container) throw new Error('trace.html has no #trace-root element');

createRoot(container).render(
  <StrictMode>
    <TraceApp />
  </StrictMode>,
);
