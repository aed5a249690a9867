import { describe, expect, it } from 'vitest';
import { buildAntTheme, LAYERS } from './buildTheme';
import { contrastRatio, TEXT_CONTRAST } from './contrast';
import {
  DEFAULT_THEME,
  PRESETS,
  PRIMARY_COLORS,
  SHADES,
  SURFACE_PALETTES,
  parseThemeState,
  prePaintScript,
  primaryScale,
  surfaceScale,
  type ThemeState,
} from './themeConfig';

describe('theme choices', () => {
  it('has 17 primary colours (noir first and default), 8 surfaces, 3 presets', () => {
    expect(PRIMARY_COLORS).toHaveLength(17);
    expect(DEFAULT_THEME.primary).toBe('noir');
    expect(SURFACE_PALETTES).toEqual(['slate', 'gray', 'zinc', 'neutral', 'stone', 'soho', 'viva', 'ocean']);
    expect(PRESETS).toEqual(['Aura', 'Lara', 'Nora']);
  });

  it.each(SURFACE_PALETTES)('surface %s has 12 shades 0, 50..950 of hex colours', (surface) => {
    const scale = surfaceScale(surface);
    expect(Object.keys(scale).sort()).toEqual([...SHADES].sort());
    for (const shade of SHADES) expect(scale[shade]).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it.each(PRIMARY_COLORS)('primary %s has shades 50..950', (primary) => {
    const scale = primaryScale(primary, 'slate');
    expect(Object.keys(scale)).toHaveLength(11);
  });

  it('noir uses the surface palette darkest shade as primary in light mode', () => {
    const theme = buildAntTheme({ ...DEFAULT_THEME, surface: 'zinc' });
    expect(theme.token?.colorPrimary).toBe(surfaceScale('zinc')['950']);
  });

  it('noir gives information a blue of its own; other primaries inform in their colour', () => {
    expect(buildAntTheme({ ...DEFAULT_THEME, surface: 'zinc' }).token?.colorInfo).toBe(primaryScale('blue', 'zinc')['500']);
    expect(buildAntTheme({ ...DEFAULT_THEME, dark: true }).token?.colorInfo).toBe(primaryScale('blue', DEFAULT_THEME.surface)['400']);
    expect(buildAntTheme({ ...DEFAULT_THEME, primary: 'emerald' }).token?.colorInfo).toBe(primaryScale('emerald', DEFAULT_THEME.surface)['500']);
  });

  it('maps the layer levels onto Ant Design tokens', () => {
    const { components, token } = buildAntTheme(DEFAULT_THEME);
    expect(token?.zIndexPopupBase).toBe(LAYERS.modal);
    expect(components?.Modal?.zIndexPopupBase).toBe(9000);
    expect(components?.Select?.zIndexPopup).toBe(8000);
    expect(components?.Menu?.zIndexPopup).toBe(8100);
    expect(components?.Tooltip?.zIndexPopup).toBe(7000);
    expect(components?.Message?.zIndexPopup).toBe(10000);
    expect(components?.Notification?.zIndexPopup).toBe(10000);
  });

  it('presets differ in radius, density and weight', () => {
    const [aura, lara, nora] = PRESETS.map((preset) => buildAntTheme({ ...DEFAULT_THEME, preset }).token);
    expect(new Set([aura?.borderRadius, lara?.borderRadius, nora?.borderRadius]).size).toBe(3);
    expect(new Set([aura?.controlHeight, lara?.controlHeight, nora?.controlHeight]).size).toBe(3);
    expect(aura?.fontWeightStrong).not.toBe(nora?.fontWeightStrong);
  });

  it('reads stored choices field by field, falling back to defaults', () => {
    expect(parseThemeState(null)).toEqual(DEFAULT_THEME);
    expect(parseThemeState('{oops')).toEqual(DEFAULT_THEME);
    expect(parseThemeState(JSON.stringify({ dark: true, primary: 'rose', surface: 'ocean', preset: 'Nora', ripple: false }))).toEqual({
      dark: true,
      primary: 'rose',
      surface: 'ocean',
      preset: 'Nora',
      ripple: false,
    });
    expect(parseThemeState(JSON.stringify({ dark: 'yes', primary: 'mauve', preset: 'Lara' }))).toEqual({ ...DEFAULT_THEME, preset: 'Lara' });
  });
});

describe('pre-paint script', () => {
  function run(stored: Partial<ThemeState> | null) {
    document.documentElement.className = '';
    document.documentElement.removeAttribute('style');
    if (stored) window.localStorage.setItem('theme-config', JSON.stringify(stored));
    else window.localStorage.removeItem('theme-config');
    // The script is made to run as inline HTML; evaluating it here is the closest test of that.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    (new Function(prePaintScript()) as () => void)();
  }

  it('sets p-dark and the dark background before the app loads', () => {
    run({ dark: true, surface: 'ocean' });
    expect(document.documentElement.classList.contains('p-dark')).toBe(true);
    expect(document.documentElement.style.backgroundColor).not.toBe('');
  });

  it('leaves light mode without p-dark', () => {
    run(null);
    expect(document.documentElement.classList.contains('p-dark')).toBe(false);
  });
});

describe('readable text colours (WCAG 4.5:1) for every theme choice', () => {
  const choices = PRIMARY_COLORS.flatMap((primary) => SURFACE_PALETTES.flatMap((surface) => [false, true].map((dark) => ({ primary, surface, dark }))));

  it.each(choices)('$primary on $surface, dark $dark', ({ primary, surface, dark }) => {
    const theme = buildAntTheme({ ...DEFAULT_THEME, primary, surface, dark });
    const token = theme.token as Record<string, string>;
    const backgrounds = [token.colorBgContainer, token.colorBgLayout] as string[];
    for (const name of ['colorTextSecondary', 'colorTextTertiary', 'colorTextPlaceholder']) {
      for (const bg of backgrounds) expect(contrastRatio(token[name] ?? '', bg), `${name} on ${bg}`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
    const tag = theme.components?.Tag as Record<string, string>;
    for (const [status, name] of [['Success', 'colorSuccess'], ['Warning', 'colorWarning'], ['Error', 'colorError'], ['Info', 'colorInfo']] as const) {
      const bg = token[`color${status}Bg`] ?? '';
      expect(contrastRatio(tag[name] ?? '', bg), `${name} tag`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      for (const surfaceBg of backgrounds) expect(contrastRatio(tag[name] ?? '', surfaceBg), `${name} text`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
    for (const name of ['colorTextPlaceholder', 'colorTextTertiary']) {
      expect(contrastRatio(token[name] ?? '', token.colorBgContainerDisabled ?? ''), `${name} in a disabled field`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
    const table = theme.components?.Table as Record<string, string>;
    for (const bg of [table.rowSelectedBg, table.rowSelectedHoverBg] as string[]) {
      for (const name of ['colorTextBase', 'colorTextSecondary', 'colorTextTertiary']) {
        expect(contrastRatio(token[name] ?? '', bg), `${name} on a selected row`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      }
    }
    for (const preset of ['gold', 'cyan', 'purple', 'green', 'red', 'blue', 'orange']) {
      expect(contrastRatio(tag[`${preset}7`] ?? '', tag[`${preset}1`] ?? ''), `${preset} tag`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // Ant Design's success green on white, which axe rejected.
    expect(contrastRatio('#52c41a', '#ffffff')).toBeLessThan(TEXT_CONTRAST);
  });
});
