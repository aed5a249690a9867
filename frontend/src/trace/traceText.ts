import en from '@/i18n/en/trace.json';
import zh from '@/i18n/zh/trace.json';

/** The trace page carries its two locale files itself instead of i18next, to stay small. */
export type TraceText = typeof en;

export function traceLanguage(stored: string | null, navigatorLanguage: string | undefined): 'zh' | 'en' {
  if (stored === 'zh' || stored === 'en') return stored;
  return (navigatorLanguage ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function traceText(language: 'zh' | 'en'): TraceText {
  return language === 'zh' ? zh : en;
}
