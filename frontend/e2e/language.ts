/**
 * What the language walks read of a page: the text a user reads or hears, and the records the API sent
 * it (which are data, whatever their language). Used by chinese-walk.spec.ts (no English of the
 * product's own in the Chinese interface) and a11y.spec.ts (no Chinese in the English one).
 */
import type { Page } from '@playwright/test';

/** What a user reads or hears on the page: its visible text, placeholders, aria-labels and titles. */
export async function pageText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const element of Array.from(document.querySelectorAll('[placeholder], [aria-label], [title]'))) {
      if (element.closest('[aria-hidden="true"]')) continue;
      // Two aria-labels that Ant Design's own components fix in English whatever the locale: the clear
      // button of a select (rc-select: "Clear") and the steps of a number input (rc-input-number:
      // "Increase Value", "Decrease Value"). Not the product's text; docs/accessibility.md notes them.
      if (element.closest('[class*="-select-clear"], [class*="-input-number-action"], [class*="-input-number-handler"]')) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

function strings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
}

/** Collects every string of the API's JSON answers to the page: the records it shows. */
export function recordData(page: Page): Set<string> {
  const data = new Set<string>();
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!response.url().includes('/api/') || !type.includes('json')) return;
    response
      .json()
      .then((body: unknown) => strings(body, data))
      .catch(() => undefined);
  });
  return data;
}

/**
 * Chinese characters in the texts that are not the records' (a customer or supplier named in Chinese is
 * data) nor the language switch's own name for Chinese: each with the words around it.
 */
export function chineseIn(texts: string[], data: Set<string>): string[] {
  const records = [...data].filter((value) => /\p{Script=Han}/u.test(value)).sort((a, b) => b.length - a.length);
  const found = new Set<string>();
  for (const text of texts) {
    let rest = text.replaceAll('中文', ' ');
    for (const record of records) if (rest.includes(record)) rest = rest.replaceAll(record, ' ');
    for (const match of rest.matchAll(/[\p{Script=Han}][\p{Script=Han}\s，。：、（）]*/gu)) {
      found.add(`"${match[0].trim()}" in "…${rest.slice(Math.max(0, match.index - 30), match.index + match[0].length + 30).replace(/\s+/g, ' ')}…"`);
    }
  }
  return [...found];
}
