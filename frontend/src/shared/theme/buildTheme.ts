/**
 * Maps the user's theme choices onto Ant Design's token theme (DESIGN.md section 9).
 * Presets are our own token sets named after PrimeVue's: they differ in corner radius, density,
 * font weight and borders.
 */
import { theme, type ThemeConfig } from 'antd';
import { primaryScale, surfaceScale, type Preset, type ThemeState } from './themeConfig';

/** SPEC.md section 9: layer levels. */
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

  return {
    cssVar: { key: 'trade' },
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
      Select: { zIndexPopup: LAYERS.overlay },
      DatePicker: { zIndexPopup: LAYERS.overlay },
      Popover: { zIndexPopup: LAYERS.overlay },
      Popconfirm: { zIndexPopup: LAYERS.overlay },
      Tooltip: { zIndexPopup: LAYERS.tooltip },
      Modal: { zIndexPopupBase: LAYERS.modal },
      Drawer: { zIndexPopup: LAYERS.modal },
      Message: { zIndexPopup: LAYERS.toast },
      Notification: { zIndexPopup: LAYERS.toast },
      Button: { fontWeight: preset.buttonFontWeight, primaryColor: onPrimary },
      Card: { headerFontSize: preset.fontSize + 2 },
    },
  };
}
