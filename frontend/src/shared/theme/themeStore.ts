import { useSyncExternalStore } from 'react';
import { applyThemeToDocument, loadThemeState, saveThemeState, type ThemeState } from './themeConfig';

let state: ThemeState = loadThemeState();
const listeners = new Set<() => void>();

export function getTheme(): ThemeState {
  return state;
}

/** Changes the theme at run time, persists it and updates the root element. */
export function updateTheme(partial: Partial<ThemeState>): void {
  state = { ...state, ...partial };
  saveThemeState(state);
  applyThemeToDocument(state);
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeState(): ThemeState {
  return useSyncExternalStore(subscribe, getTheme);
}
