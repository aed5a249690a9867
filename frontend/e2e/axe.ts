/**
 * axe-core over a page as it is now (@axe-core/playwright): the walk of every route (pictures.spec.ts,
 * each first view in the light theme at desktop width and the dark theme on a phone) and the states a
 * first view does not show (a11y.spec.ts: selected rows, open dialogs and panels). Critical and serious
 * violations are collected, to fail the test with every finding at once; moderate and minor ones become
 * the test's annotations.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, type Page } from '@playwright/test';
import type { Theme } from './phone';

export interface Found {
  route: string;
  theme: Theme;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe for `page`, run in the page itself (axe's "legacy" mode). By default @axe-core/playwright audits each
 * frame apart and then opens a blank page of its own to put their results together, once per audit: a
 * new page, and axe loaded twice, for every view of the walk. The app's pages have no frames, so running
 * axe.run in the page finds the same.
 */
export function axeOf(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}

/** axe over the page as it is now; its critical and serious violations are added to `found`. */
export async function analyze(page: Page, route: string, theme: Theme, found: Found[]): Promise<void> {
  const results = await axeOf(page).analyze();
  for (const violation of results.violations) {
    const impact = violation.impact ?? 'unknown';
    test.info().annotations.push({ type: `axe ${impact}`, description: `${theme} ${route}: ${violation.id} (${violation.nodes.length})` });
    if (impact === 'critical' || impact === 'serious') {
      found.push({
        route,
        theme,
        rule: violation.id,
        impact,
        help: violation.help,
        targets: violation.nodes
          .slice(0, 5)
          .map((node) => `${node.target.join(' ')}${node.failureSummary ? `\n        ${node.failureSummary.replace(/\n/g, '\n        ')}` : ''}`),
      });
    }
  }
}

/** The findings, a paragraph each: theme, route, impact, rule, axe's explanation and the first elements. */
export function report(found: Found[]): string {
  return found.map((f) => `${f.theme} ${f.route}: [${f.impact}] ${f.rule}: ${f.help}\n      ${f.targets.join('\n      ')}`).join('\n');
}
