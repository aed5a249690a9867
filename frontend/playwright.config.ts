import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the real server:
 * ../scripts/e2e-server.sh builds nothing; it serves the built frontend (dist/) and the API with a
 * fresh demo database on 127.0.0.1, on E2E_PORT or else a free port.
 */
/** E2E_BASE_URL points the tests at a server that is already running (then none is started). */
const EXTERNAL = process.env.E2E_BASE_URL;

/**
 * A port nobody listens on (bound to port 0, then released), so that a busy machine's other servers
 * cannot collide with the test server. Chosen once, by the runner: it puts the port in the environment,
 * which the worker processes inherit, so they read the same one instead of choosing again.
 */
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();});";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}
if (!EXTERNAL && !process.env.E2E_PORT) {
  process.env.E2E_PORT = String(freePort());
  console.log(`e2e: the test server takes port ${process.env.E2E_PORT}`);
}
const PORT = Number(process.env.E2E_PORT);
const BASE_URL = EXTERNAL ?? `http://127.0.0.1:${PORT}`;

/**
 * The pictures (e2e/pictures.spec.ts) run against a server of their own, started beside the journeys'
 * one (../scripts/e2e-servers.sh): its demo data loads on a fixed day with fixed carton codes and its
 * clock starts on that day (backend/config/fixed_clock.py), so its pages look the same on every run, and
 * no journey changes its records. The browser's clock is fixed to the same day (pictures.spec.ts).
 * With E2E_BASE_URL, E2E_PICTURES_BASE_URL names a pictures server started by hand
 * (`E2E_FIXED_DAY=2026-03-02 bash ../scripts/e2e-server.sh`, the day of E2E_PICTURES_DAY); without it
 * the pictures are skipped. E2E_PICTURES_ONLY=1 (make pictures, make pictures-update) starts the
 * pictures' server alone and runs only the pictures.
 */
process.env.E2E_PICTURES_DAY ??= '2026-03-02';
const PICTURES_DAY = process.env.E2E_PICTURES_DAY;
const PICTURES_ONLY = process.env.E2E_PICTURES_ONLY === '1';
/**
 * The route pictures run in every run that starts its own servers (`make test`, `make test-e2e`, `make
 * pictures`): the pictures' server starts beside the journeys' one. E2E_ROUTE_PICTURES=0 leaves them
 * out; so does a run against a server started by hand (E2E_BASE_URL) without E2E_PICTURES_BASE_URL.
 * Without them, only the sign-in pictures run, against the journeys' server (the sign-in page shows no
 * data). docs/accessibility.md, "Pictures".
 */
const ROUTE_PICTURES =
  PICTURES_ONLY || (process.env.E2E_ROUTE_PICTURES !== '0' && (!EXTERNAL || Boolean(process.env.E2E_PICTURES_BASE_URL)));
if (!ROUTE_PICTURES) process.env.E2E_ROUTE_PICTURES_OFF = '1';
if (ROUTE_PICTURES && !EXTERNAL && !process.env.E2E_PICTURES_PORT) {
  let port = freePort();
  while (port === PORT) port = freePort();
  process.env.E2E_PICTURES_PORT = String(port);
  console.log(`e2e: the pictures server takes port ${process.env.E2E_PICTURES_PORT}`);
}
const PICTURES_URL = !ROUTE_PICTURES
  ? BASE_URL
  : EXTERNAL
    ? process.env.E2E_PICTURES_BASE_URL
    : `http://127.0.0.1:${String(process.env.E2E_PICTURES_PORT)}`;
if (PICTURES_URL) process.env.E2E_PICTURES_URL = PICTURES_URL;
const PICTURES_PROJECT = {
  name: 'pictures',
  testMatch: ['**/pictures.spec.ts'],
  use: { baseURL: PICTURES_URL ?? BASE_URL, timezoneId: 'UTC' },
};
/**
 * Screenshots for people to look at (e2e/shots/*.shots.ts) compare nothing: they run only when
 * SHOTS_DIR is set, so that every test the suite counts can fail.
 */
const SHOTS = Boolean(process.env.SHOTS_DIR);

export default defineConfig({
  testDir: './e2e',
  testMatch: SHOTS ? ['**/*.spec.ts', '**/*.shots.ts'] : ['**/*.spec.ts'],
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  // No retries, in CI either: a flaky test shows as failed instead of hiding behind a second run.
  retries: 0,
  timeout: 60_000,
  expect: {
    timeout: 10_000,
    // Pictures (pictures.spec.ts): no animation or caret in them; a few pixels of anti-aliasing may differ.
    toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css', maxDiffPixelRatio: 0.001 },
  },
  // One baseline per picture, named by the test's own words (no platform suffix: CI runs the same
  // Debian Chromium and fonts as the machine that made them).
  // E2E_SNAPSHOT_DIR puts them elsewhere, e.g. to draw every picture on two fresh servers and compare.
  snapshotPathTemplate: `${process.env.E2E_SNAPSHOT_DIR ?? '{testDir}/__screenshots__'}/{testFilePath}/{arg}{ext}`,
  // PLAYWRIGHT_JUNIT_OUTPUT_NAME set (make test-e2e): also a JUnit report, which the total adds up.
  reporter: process.env.PLAYWRIGHT_JUNIT_OUTPUT_NAME ? [['list'], ['junit']] : [['list']],
  // The journeys first: the pictures' server, started beside theirs, has loaded by the time they end.
  projects: PICTURES_ONLY ? [PICTURES_PROJECT] : [{ name: 'journeys', testIgnore: ['**/pictures.spec.ts'] }, PICTURES_PROJECT],
  use: {
    baseURL: BASE_URL,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'block',
  },
  webServer: EXTERNAL
    ? undefined
    : {
        command: PICTURES_ONLY || !ROUTE_PICTURES ? 'bash ../scripts/e2e-server.sh' : 'bash ../scripts/e2e-servers.sh',
        url: `${PICTURES_ONLY ? PICTURES_URL : BASE_URL}/api/schema/`,
        reuseExistingServer: false,
        // Migrating and loading every area's demo data: about 30 s on a quiet 2-core machine, over 7
        // minutes when the machine is busy (load 15-17 on 2 cores). A start-up limit only, never a
        // measure of speed: it waits for the server as long as a CI run could afford to.
        timeout: 1_800_000,
        // The partners the journeys stand up (a Visma in Node) listen on this machine over plain http:
        // this test installation's operator lets the outbound client reach them (docs/tenancy.md).
        env: {
          ...(PICTURES_ONLY
            ? { E2E_PORT: String(process.env.E2E_PICTURES_PORT), E2E_SERVER_NAME: 'pictures', E2E_FIXED_DAY: PICTURES_DAY }
            : { E2E_PORT: String(PORT), E2E_SERVER_NAME: 'e2e', E2E_PICTURES_PORT: String(process.env.E2E_PICTURES_PORT ?? '') }),
          E2E_PICTURES_DAY: PICTURES_DAY,
          OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
          OUTBOUND_ALLOW_HTTP: 'true',
        },
        // SIGTERM, so that the server drops its database before it goes (scripts/e2e-server.sh).
        gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
