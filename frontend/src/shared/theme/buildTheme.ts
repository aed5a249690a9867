/**
 * Maps the user's theme choices onto Ant Design's token theme (docs/design.md section 9).
 * Presets are our own token sets named after PrimeVue's: they differ in corner radius, density,
 * font weight and borders.
 */
import { theme, type ThemeConfig } from 'antd';
import { readableShade } from './contrast';
import { primaryScale, surfaceScale, type Palette, type Preset, type PrimaryColor, type SurfacePalette, type ThemeState } from './themeConfig';

/** docs/specification.md section 9: layer levels. */
/**
 * The theme's CSS variables (`--p-…`) are defined under this class (`cssVar.key`), which Ant Design's
 * components carry on their roots: an element of ours drawn with them must be inside one that has it.
 */
export const CSS_VAR_CLASS = 'trade';

export const LAYERS = {
  modal: 9000,
  overlay: 8000,
  menu: 8100,
  tooltip: 7000,
  toast: 10000,
} as const;

interface PresetTokens {
  borderRadius: number;
  controlHeight: number;
  fontSize: number;
  fontWeightStrong: number;
  lineWidth: number;
  wireframe: boolean;
  compact: boolean;
  buttonFontWeight: number;
}

export const PRESET_TOKENS: Record<Preset, PresetTokens> = {
  // Aura: soft corners, comfortable density, medium weight, hairline borders.
  Aura: {
    borderRadius: 8,
    controlHeight: 36,
    fontSize: 14,
    fontWeightStrong: 600,
    lineWidth: 1,
    wireframe: false,
    compact: false,
    buttonFontWeight: 500,
  },
  // Lara: roomier controls, bolder type, slightly heavier borders.
  Lara: {
    borderRadius: 6,
    controlHeight: 40,
    fontSize: 14,
    fontWeightStrong: 700,
    lineWidth: 1,
    wireframe: true,
    compact: false,
    buttonFontWeight: 600,
  },
  // Nora: square corners, compact density, strong type, outlined look.
  Nora: {
    borderRadius: 2,
    controlHeight: 32,
    fontSize: 13,
    fontWeightStrong: 700,
    lineWidth: 1,
    wireframe: true,
    compact: true,
    buttonFontWeight: 600,
  },
};

export function buildAntTheme(state: ThemeState): ThemeConfig {
  const surface = surfaceScale(state.surface);
  const primary = primaryScale(state.primary, state.surface);
  const preset = PRESET_TOKENS[state.preset];
  const noir = state.primary === 'noir';
  const colorPrimary = state.dark ? (noir ? primary['300'] : primary['400']) : noir ? primary['950'] : primary['500'];
  // Noir has no hue of its own: information (alerts, info messages) takes blue, since tints of near-black
  // make dark boxes with dark text.
  const info = noir ? primaryScale('blue', state.surface) : primary;
  const colorInfo = state.dark ? info['400'] : info['500'];
  // Noir in dark mode is a light grey: text on it must be dark to stay readable.
  const onPrimary = state.dark && noir ? surface['950'] : surface['0'];

  const algorithm = [state.dark ? theme.darkAlgorithm : theme.defaultAlgorithm];
  if (preset.compact) algorithm.push(theme.compactAlgorithm);

  const bgLayout = state.dark ? surface['950'] : surface['50'];
  const bgContainer = state.dark ? surface['900'] : surface['0'];
  const bgElevated = state.dark ? surface['800'] : surface['0'];
  const border = state.dark ? surface['700'] : surface['200'];
  const borderSecondary = state.dark ? surface['800'] : surface['100'];
  const text = state.dark ? surface['0'] : surface['900'];

  // Text colours that Ant Design derives with transparency (secondary text, descriptions, placeholders)
  // and its status colours fall below 4.5:1 on our surfaces: they are picked from our palettes instead,
  // as the first shade readable on every background text sits on (containers, the page, table headers).
  const { 0: _white, ...surfacePalette } = surface;
  const textBackgrounds = state.dark ? [bgContainer, bgLayout, bgElevated] : [bgContainer, bgLayout, surface['100']];
  const colorTextSecondary = readableShade(surfacePalette, textBackgrounds, state.dark, state.dark ? '300' : '600');
  const colorTextTertiary = readableShade(surfacePalette, textBackgrounds, state.dark, state.dark ? '400' : '500');
  const status = statusColors(state.dark, textBackgrounds, {
    success: primaryScale('green', state.surface),
    warning: primaryScale('amber', state.surface),
    error: primaryScale('rose', state.surface),
    info,
  });

  return {
    cssVar: { key: CSS_VAR_CLASS },
    hashed: false,
    algorithm,
    token: {
      colorPrimary,
      colorInfo,
      colorLink: colorPrimary,
      colorTextBase: text,
      colorBgBase: state.dark ? surface['950'] : surface['0'],
      colorBgLayout: bgLayout,
      colorBgContainer: bgContainer,
      colorBgElevated: bgElevated,
      colorBorder: border,
      colorBorderSecondary: borderSecondary,
      colorTextLightSolid: onPrimary,
      colorTextSecondary,
      colorTextTertiary,
      colorTextPlaceholder: colorTextTertiary,
      // Disabled fields: a surface shade the placeholder and tertiary text were chosen to be readable on
      // (Ant Design's derived translucent grey, over a dialog in dark mode, left the placeholder at 4.46:1).
      colorBgContainerDisabled: textBackgrounds[2],
      ...status.backgrounds,
      borderRadius: preset.borderRadius,
      controlHeight: preset.controlHeight,
      fontSize: preset.fontSize,
      fontWeightStrong: preset.fontWeightStrong,
      lineWidth: preset.lineWidth,
      wireframe: preset.wireframe,
      // Containers (modals, drawers) sit on the modal layer; nested pop-ups stack above their container.
      zIndexPopupBase: LAYERS.modal,
    },
    components: {
      Layout: {
        headerBg: bgContainer,
        bodyBg: bgLayout,
        siderBg: bgContainer,
        footerBg: bgLayout,
        headerPadding: '0 16px',
      },
      Menu: { zIndexPopup: LAYERS.menu, activeBarHeight: 2, itemBg: 'transparent', horizontalItemSelectedColor: colorPrimary },
      Dropdown: { zIndexPopup: LAYERS.menu },
      // The values of a disabled select are information (e.g. a user's roles): readable. (Ant Design 6
      // draws them in colorTextDisabled; its multipleItemColorDisabled token is not used.)
      Select: { zIndexPopup: LAYERS.overlay, colorTextDisabled: colorTextSecondary },
      DatePicker: { zIndexPopup: LAYERS.overlay },
      Popover: { zIndexPopup: LAYERS.overlay },
      Popconfirm: { zIndexPopup: LAYERS.overlay },
      Tooltip: { zIndexPopup: LAYERS.tooltip },
      Modal: { zIndexPopupBase: LAYERS.modal },
      Drawer: { zIndexPopup: LAYERS.modal },
      Message: { zIndexPopup: LAYERS.toast },
      Notification: { zIndexPopup: LAYERS.toast },
      // Danger buttons: readable red text; a filled danger button's text contrasts with that red.
      Button: { fontWeight: preset.buttonFontWeight, primaryColor: onPrimary, colorError: status.text.colorError, dangerColor: state.dark ? surface['950'] : surface['0'] },
      // Status tags, texts and form messages write in the status colour: its readable shade.
      Tag: { ...status.text, ...presetTagColors(state.dark, textBackgrounds, state.surface) },
      Typography: { ...status.text },
      Form: { colorError: status.text.colorError, colorWarning: status.text.colorWarning, colorSuccess: status.text.colorSuccess },
      Card: { headerFontSize: preset.fontSize + 2 },
      // A table's "nothing here" text is drawn in the disabled colour: it is a message, so readable.
      // Selected rows: Ant Design tints them with the primary colour, which for noir is dark grey behind
      // near-black text. A surface shade that every text colour above is readable on, in every theme.
      Table: {
        colorTextDisabled: colorTextTertiary,
        rowSelectedBg: textBackgrounds[2],
        rowSelectedHoverBg: textBackgrounds[2],
      },
    },
  };
}

/** Ant Design's preset tag colours, each drawn from the nearest palette of ours. */
const PRESET_PALETTES: Record<string, Exclude<PrimaryColor, 'noir'>> = {
  blue: 'blue',
  purple: 'purple',
  cyan: 'cyan',
  green: 'green',
  magenta: 'fuchsia',
  pink: 'pink',
  red: 'rose',
  orange: 'orange',
  yellow: 'yellow',
  volcano: 'orange',
  geekblue: 'indigo',
  lime: 'lime',
  gold: 'amber',
};

/**
 * A preset tag (`<Tag color="gold">`) is text in the colour's shade 7 on its shade 1 with a border of
 * shade 3: readable shades of our palettes instead.
 */
function presetTagColors(dark: boolean, surfaces: readonly string[], surface: SurfacePalette): Record<string, string> {
  const tokens: Record<string, string> = {};
  for (const [key, name] of Object.entries(PRESET_PALETTES)) {
    const palette = primaryScale(name, surface);
    const bg = dark ? palette['950'] : palette['50'];
    tokens[`${key}1`] = bg;
    tokens[`${key}3`] = dark ? palette['800'] : palette['200'];
    tokens[`${key}7`] = readableShade(palette, [bg, ...surfaces], dark, dark ? '400' : '600');
  }
  return tokens;
}

type Status = 'success' | 'warning' | 'error' | 'info';

/**
 * Status colours from our palettes: a tinted background and border, and text in the first shade that is
 * readable on that background and on the surfaces (Ant Design's own, e.g. #52c41a on white, are not).
 */
function statusColors(dark: boolean, surfaces: readonly string[], palettes: Record<Status, Palette>) {
  const backgrounds: Record<string, string> = {};
  const text = {} as Record<'colorSuccess' | 'colorWarning' | 'colorError' | 'colorInfo', string>;
  for (const [status, palette] of Object.entries(palettes) as [Status, Palette][]) {
    const name = status.charAt(0).toUpperCase() + status.slice(1);
    const bg = dark ? palette['950'] : palette['50'];
    backgrounds[`color${name}Bg`] = bg;
    backgrounds[`color${name}Border`] = dark ? palette['800'] : palette['200'];
    const readable = readableShade(palette, [bg, ...surfaces], dark, dark ? '400' : '600');
    backgrounds[`color${name}Text`] = readable;
    text[`color${name}` as keyof typeof text] = readable;
  }
  return { backgrounds, text };
}
