/**
 * The user's theme choices (docs/specification.md section 2 "Theme switcher panel", docs/design.md section 9) and how they
 * are persisted. This file has no React and no Ant Design import so that vite.config.ts can reuse it to
 * generate the pre-paint script in index.html.
 */
import palettes from './palettes.json';

export const THEME_STORAGE_KEY = 'theme-config';
/** docs/specification.md section 9: dark mode selector class on the root element. */
export const DARK_CLASS = 'p-dark';

export const PRIMARY_COLORS = [
  'noir',
  'emerald',
  'green',
  'lime',
  'orange',
  'amber',
  'yellow',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
] as const;
export type PrimaryColor = (typeof PRIMARY_COLORS)[number];

export const SURFACE_PALETTES = ['slate', 'gray', 'zinc', 'neutral', 'stone', 'soho', 'viva', 'ocean'] as const;
export type SurfacePalette = (typeof SURFACE_PALETTES)[number];

export const PRESETS = ['Aura', 'Lara', 'Nora'] as const;
export type Preset = (typeof PRESETS)[number];

export const SHADES = ['0', '50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const;
export type Shade = (typeof SHADES)[number];
export type Palette = Record<Exclude<Shade, '0'>, string>;
export type SurfaceScale = Record<Shade, string>;

export interface ThemeState {
  dark: boolean;
  primary: PrimaryColor;
  surface: SurfacePalette;
  preset: Preset;
  ripple: boolean;
}

export const DEFAULT_THEME: ThemeState = {
  dark: false,
  primary: 'noir',
  surface: 'slate',
  preset: 'Aura',
  ripple: true,
};

const primaryPalettes: Record<Exclude<PrimaryColor, 'noir'>, Palette> = palettes.primary;
const surfacePalettes: Record<SurfacePalette, SurfaceScale> = palettes.surface;

export const FIXED_COLORS = palettes.fixed;

export function surfaceScale(surface: SurfacePalette): SurfaceScale {
  return surfacePalettes[surface];
}

/**
 * Noir uses the surface palette as primary: its darkest shade in light mode. In dark mode the darkest
 * shade would vanish on the dark background, so the light end of the same palette is used instead.
 */
export function primaryScale(primary: PrimaryColor, surface: SurfacePalette): Palette {
  if (primary === 'noir') {
    const { 0: _white, ...rest } = surfacePalettes[surface];
    return rest;
  }
  return primaryPalettes[primary];
}

/** The swatch shown for a primary colour in the configurator. */
export function primarySwatch(primary: PrimaryColor, surface: SurfacePalette): string {
  return primary === 'noir' ? surfacePalettes[surface]['950'] : primaryPalettes[primary]['500'];
}

export function surfaceSwatch(surface: SurfacePalette): string {
  return surfacePalettes[surface]['500'];
}

/** Page background before the app has rendered (also used by the pre-paint script). */
export function pageBackground(state: Pick<ThemeState, 'dark' | 'surface'>): string {
  const scale = surfacePalettes[state.surface];
  return state.dark ? scale['950'] : scale['50'];
}

function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** Reads stored choices; anything unknown or malformed falls back to the default, field by field. */
export function parseThemeState(raw: string | null): ThemeState {
  if (!raw) return { ...DEFAULT_THEME };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_THEME };
  }
  if (typeof value !== 'object' || value === null) return { ...DEFAULT_THEME };
  const v = value as Record<string, unknown>;
  return {
    dark: typeof v.dark === 'boolean' ? v.dark : DEFAULT_THEME.dark,
    primary: isOneOf(PRIMARY_COLORS, v.primary) ? v.primary : DEFAULT_THEME.primary,
    surface: isOneOf(SURFACE_PALETTES, v.surface) ? v.surface : DEFAULT_THEME.surface,
    preset: isOneOf(PRESETS, v.preset) ? v.preset : DEFAULT_THEME.preset,
    ripple: typeof v.ripple === 'boolean' ? v.ripple : DEFAULT_THEME.ripple,
  };
}

export function loadThemeState(storage: Storage = window.localStorage): ThemeState {
  return parseThemeState(storage.getItem(THEME_STORAGE_KEY));
}

export function saveThemeState(state: ThemeState, storage: Storage = window.localStorage): void {
  storage.setItem(THEME_STORAGE_KEY, JSON.stringify(state));
}

/** Applies the parts of the theme that live outside React: the p-dark class and the page background. */
export function applyThemeToDocument(state: ThemeState, doc: Document = document): void {
  doc.documentElement.classList.toggle(DARK_CLASS, state.dark);
  doc.documentElement.style.colorScheme = state.dark ? 'dark' : 'light';
  doc.documentElement.style.backgroundColor = pageBackground(state);
}

/**
 * The inline script placed in index.html's <head> so the stored theme applies before first paint.
 * It is generated from this module so the colours are defined only here.
 */
export function prePaintScript(): string {
  const backgrounds: Record<string, { light: string; dark: string }> = {};
  for (const s of SURFACE_PALETTES) {
    backgrounds[s] = { light: pageBackground({ dark: false, surface: s }), dark: pageBackground({ dark: true, surface: s }) };
  }
  return `(function(){try{var b=${JSON.stringify(backgrounds)};var c=JSON.parse(localStorage.getItem(${JSON.stringify(
    THEME_STORAGE_KEY,
  )})||'{}')||{};var d=c.dark===true;var s=b[c.surface]||b[${JSON.stringify(DEFAULT_THEME.surface)}];var r=document.documentElement;if(d){r.classList.add(${JSON.stringify(
    DARK_CLASS,
  )});}r.style.colorScheme=d?'dark':'light';r.style.backgroundColor=d?s.dark:s.light;}catch(e){}})();`;
}
