import { expect, type Page } from '@playwright/test';
import { axeOf } from './axe';

/** A phone's screen (iPhone 12 to 15): the journeys at this width use `test.use({ viewport: PHONE, isMobile: true, hasTouch: true })`. */
export const PHONE = { width: 390, height: 844 };

export type Theme = 'light' | 'dark';

/** Before the app starts: the company (the trading company, 3) and the theme, light or dark. */
export async function phoneSetup(page: Page, theme: Theme): Promise<void> {
  await page.addInitScript((dark) => {
    window.localStorage.setItem('tenant_id', '3');
    const stored = JSON.parse(window.localStorage.getItem('theme-config') ?? '{}') as Record<string, unknown>;
    window.localStorage.setItem('theme-config', JSON.stringify({ ...stored, dark }));
  }, theme === 'dark');
  await page.emulateMedia({ colorScheme: theme });
}

/**
 * What a phone user would see as broken: the page scrolling sideways, an open dialog wider than the
 * screen, or a button (outside the tables, which scroll inside their own frame) beyond its edges.
 * Measured against the phone's width, not `window.innerWidth`: a mobile browser zooms a page that is
 * too wide out, and its layout viewport (innerWidth) grows with the page.
 */
export async function fitsThePhone(page: Page, step: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((width) => {
          const problems: string[] = [];
          if (document.documentElement.scrollWidth > width + 1) problems.push(`page is ${document.documentElement.scrollWidth}px wide`);
          const visible = (el: Element) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
          };
          for (const dialog of Array.from(document.querySelectorAll('.p-modal-content, .p-popover-inner'))) {
            if (!visible(dialog)) continue;
            const r = dialog.getBoundingClientRect();
            if (r.left < -1 || r.right > width + 1) problems.push(`dialog from ${Math.round(r.left)} to ${Math.round(r.right)}px`);
          }
          for (const button of Array.from(document.querySelectorAll('button'))) {
            if (!visible(button) || button.closest('.p-table-content, .p-table-body, .p-tabs-nav-list, .p-picker-dropdown')) continue;
            const r = button.getBoundingClientRect();
            if (r.left < -1 || r.right > width + 1) problems.push(`button "${button.textContent?.trim() || button.getAttribute('aria-label')}" at ${Math.round(r.left)}-${Math.round(r.right)}px`);
          }
          return problems;
        }, PHONE.width),
      { message: `${step}: fits a ${PHONE.width}px screen`, timeout: 5_000 },
    )
    .toEqual([]);
}

/** A list fits the phone's width: every table on the page shows all its columns without scrolling sideways. */
export async function listFitsThePhone(page: Page, step: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll('.p-table-content, .p-table-body'))
            .filter((frame) => frame.scrollWidth > frame.clientWidth + 1)
            .map((frame) => `a table ${frame.scrollWidth}px wide in a ${frame.clientWidth}px frame`),
        ),
      { message: `${step}: the list fits a ${PHONE.width}px screen`, timeout: 5_000 },
    )
    .toEqual([]);
}

/**
 * axe-core finds no critical or serious violation on the page as it is, once its entrance animations
 * have ended: a message fading in is drawn at part opacity, and axe measures its contrast as drawn.
 * Endless animations (spinners, the loading bar) are not waited for.
 */
export async function axeClean(page: Page, step: string): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
  const results = await axeOf(page).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  expect(bad, `${step}: axe`).toEqual([]);
}
