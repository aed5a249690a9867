// Bytes a first visit transfers, measured in a real browser (Debian's Chromium) against a running server:
// the JavaScript (as sent over the wire, i.e. compressed when the server compresses) before the login page
// and before the signed-in home page, each with an empty browser cache and no service worker, against
// the 250 KB budget of docs/design.md section 10; and, with the service worker allowed, what its precache
// downloads on top after the first page. Prints the figures; exits 1 when a budget is exceeded.
// Usage: E2E_BASE_URL=http://127.0.0.1:8799 node scripts/transfer-size.mjs   (make bench starts a server)
// TRANSFER_FILES=1 also lists each JavaScript file a first page transferred, largest first.
import { chromium } from '@playwright/test';

const BASE = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 8799}`;
const BUDGET_KB = 250;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});

/**
 * Counts the bytes the network delivers to `page` from now on, as DevTools' "transferred" column does
 * (Chrome's encodedDataLength: headers and the encoded body of each response, once per request that
 * went to the network): { js, all, requests, jsRequests }. Playwright's request events also report a
 * module that a `modulepreload` link had already fetched, a second time from the memory cache, which
 * counted those chunks twice.
 */
async function meter(context, page) {
  const totals = { js: 0, all: 0, requests: 0, jsRequests: 0, encodings: new Set(), files: [] };
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const seen = new Map();
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    seen.set(event.requestId, { url: event.response.url, type: event.type, encoding: headers['content-encoding'] ?? 'none' });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const response = seen.get(event.requestId);
    if (!response) return;
    totals.all += event.encodedDataLength;
    totals.requests += 1;
    if (response.type === 'Script' || new URL(response.url).pathname.endsWith('.js')) {
      totals.js += event.encodedDataLength;
      totals.jsRequests += 1;
      totals.encodings.add(response.encoding);
      totals.files.push({ path: new URL(response.url).pathname, bytes: event.encodedDataLength });
    }
  });
  return totals;
}

async function firstVisit(path, { signedIn, serviceWorkers = 'block' }) {
  const context = await browser.newContext({ serviceWorkers, locale: 'en-US' });
  const page = await context.newPage();
  if (signedIn) {
    await page.goto(`${BASE}/auth/login`);
    await page.locator('input#username').fill('admin');
    await page.locator('input#password').fill('demo1234');
    await page.locator('form[data-testid="login-form"] button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'));
    // The app goes on to the home page after signing in: its chunks must have arrived before the meter
    // starts, or those still in flight are counted here and again when the visit below fetches them.
    await page.waitForLoadState('networkidle');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
  }
  const totals = await meter(context, page);
  await page.goto(`${BASE}${path}`, { waitUntil: 'networkidle' });
  if (serviceWorkers === 'allow') await page.waitForTimeout(3000);
  await page.waitForLoadState('networkidle');
  await context.close();
  return totals;
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
let failed = false;
for (const [name, path, signedIn] of [
  ['login page', '/auth/login', false],
  ['signed-in home page', '/', true],
]) {
  const t = await firstVisit(path, { signedIn });
  const over = t.js / 1024 > BUDGET_KB;
  failed ||= over;
  console.log(
    `${over ? 'OVER' : 'ok  '} ${name}: ${kb(t.js)} KB of JavaScript transferred in ${t.jsRequests} requests ` +
      `(${[...t.encodings].join(', ')}), budget ${BUDGET_KB} KB; ${kb(t.all)} KB in ${t.requests} requests in all`,
  );
  if (process.env.TRANSFER_FILES) {
    for (const file of t.files.sort((a, b) => b.bytes - a.bytes)) console.log(`     ${kb(file.bytes).padStart(6)} KB ${file.path}`);
  }
}
const sw = await firstVisit('/auth/login', { signedIn: false, serviceWorkers: 'allow' });
console.log(`info login page with the service worker precaching: ${kb(sw.all)} KB in ${sw.requests} requests in all`);
await browser.close();
process.exit(failed ? 1 : 0);
