import { afterEach, describe, expect, it } from 'vitest';
import { keepScrollRegionsReachable, markScrollRegions } from './scrollRegions';

function frame(scrollWidth: number, clientWidth: number): HTMLElement {
  const element = document.createElement('div');
  element.className = 'p-table-content';
  Object.defineProperty(element, 'scrollWidth', { configurable: true, get: () => scrollWidth });
  Object.defineProperty(element, 'clientWidth', { configurable: true, get: () => clientWidth });
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => 100 });
  Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => 100 });
  return element;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('table frames that scroll sideways', () => {
  it('take the focus while they overflow, and give it back once they fit', () => {
    const wide = frame(900, 390);
    const fits = frame(390, 390);
    document.body.append(wide, fits);
    markScrollRegions(document.body);
    expect(wide.getAttribute('tabindex')).toBe('0');
    expect(fits.hasAttribute('tabindex')).toBe(false);

    Object.defineProperty(wide, 'scrollWidth', { configurable: true, get: () => 390 });
    markScrollRegions(document.body);
    expect(wide.hasAttribute('tabindex')).toBe(false);
  });

  it('leave a tabindex the page set itself alone', () => {
    const own = frame(390, 390);
    own.setAttribute('tabindex', '-1');
    document.body.append(own);
    markScrollRegions(document.body);
    expect(own.getAttribute('tabindex')).toBe('-1');
  });

  it('are marked when a page adds them later', async () => {
    const stop = keepScrollRegionsReachable(document.body);
    const wide = frame(900, 390);
    document.body.append(wide);
    await new Promise((resolve) => window.requestAnimationFrame(resolve));
    await new Promise((resolve) => window.requestAnimationFrame(resolve));
    expect(wide.getAttribute('tabindex')).toBe('0');
    stop();
  });
});
