/**
 * WCAG 2 contrast between colours, and the shade of a palette that is readable as text: the theme picks
 * its text colours (secondary text, placeholders, status colours) with it, so every primary and surface
 * choice, light and dark, keeps text at 4.5:1 or more (axe's colour-contrast rule, WCAG 1.4.3).
 */
import type { Palette } from './themeConfig';

/** Text of normal size needs this ratio against its background (WCAG 2 AA). */
export const TEXT_CONTRAST = 4.5;

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** The relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [match[1], match[2], match[3]].map((part) => channel(parseInt(part ?? '0', 16)));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

const DARKER: (keyof Palette)[] = ['400', '500', '600', '700', '800', '900', '950'];
const LIGHTER: (keyof Palette)[] = ['600', '500', '400', '300', '200', '100', '50'];

/**
 * The first shade from `from` on (towards dark text on light backgrounds, towards light text on dark
 * ones) that reaches `ratio` against every background; the palette's end when none does.
 */
export function readableShade(palette: Palette, backgrounds: readonly string[], dark: boolean, from: keyof Palette, ratio = TEXT_CONTRAST): string {
  const order = dark ? LIGHTER : DARKER;
  const start = Math.max(order.indexOf(from), 0);
  for (const shade of order.slice(start)) {
    if (backgrounds.every((bg) => contrastRatio(palette[shade], bg) >= ratio)) return palette[shade];
  }
  return palette[order[order.length - 1] ?? from];
}
