import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy routes and layouts load real Ant Design modules on first use: slow on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no matchMedia; Ant Design and the mobile-menu hook need it.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// jsdom has no ResizeObserver; Ant Design's menu and overflow handling use it.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// jsdom computes styles by matching every rule of every <style> (Ant Design injects thousands) for each
// call, and Ant Design asks for computed styles on every measurement: the bulk of a page test's time.
// Tests assert on the DOM, never on computed layout, so an element's inline style stands in for it.
window.getComputedStyle = ((element: Element) =>
  (element as HTMLElement).style ?? document.createElement('div').style);
