import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/**
 * Printers (issue 15): the test plays a ZPL printer on 127.0.0.1 (a TCP server answering ~HS with the
 * documented three status strings), pairs a real print agent (printagent/cartontrace_printagent.py, a
 * subprocess) through /printer/integration, adds the printer, prints the demo carton's label from the
 * labels table, and sees the job turn `printed` while the label's ZPL arrives at the printer.
 */
const AGENT = fileURLToPath(new URL('../../printagent/cartontrace_printagent.py', import.meta.url));
const STX = '\x02';
const ETX = '\x03';
const READY = ['030,0,0,1245,000,0,0,0,000,0,0,0', '001,0,0,0,0,2,6,0,00000000,1,000', '1234,0']
  .map((line) => `${STX}${line}${ETX}\r\n`)
  .join('');

interface FakePrinter {
  server: Server;
  port: number;
  received: () => string;
}

async function startPrinter(): Promise<FakePrinter> {
  let received = '';
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      let at = pending.indexOf('~HS');
      while (at >= 0) {
        received += pending.slice(0, at);
        pending = pending.slice(at + 3);
        socket.write(READY);
        at = pending.indexOf('~HS');
      }
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, received: () => received };
}

function runAgent(args: string[], configDir: string): ChildProcess {
  return spawn('python3', [AGENT, '--config-dir', configDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function finished(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

interface Label {
  id: number;
  code: string;
  raw_material: number;
}

async function demoLabel(request: APIRequestContext): Promise<Label> {
  const login = await request.post('/api/users/login/', { data: { username: 'admin', password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const token = ((await login.json()) as { data: { access: string } }).data.access;
  const cartons = await request.get('/api/eudr/cartons/?tenant_id=3&page_size=1&ordering=created_at', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(cartons.ok()).toBeTruthy();
  const [label] = ((await cartons.json()) as { data: { results: Label[] } }).data.results;
  if (!label) throw new Error('The demo data has no carton labels.');
  return label;
}

async function choose(page: Page, testId: string, option: string | RegExp): Promise<void> {
  const select = page.getByTestId(testId);
  await expect(async () => {
    await select.click();
    const item = page.locator('.p-select-dropdown:visible .p-select-item-option').filter({ hasText: option }).first();
    await expect(item).toBeVisible({ timeout: 5000 });
    await item.click();
    await expect(select).toContainText(option, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

test('a paired agent prints the demo carton label from the labels table', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const printer = await startPrinter();
  const configDir = await mkdtemp(path.join(tmpdir(), 'ct-agent-'));
  let agent: ChildProcess | undefined;
  try {
    const label = await demoLabel(request);
    await page.addInitScript(() => {
      window.localStorage.setItem('tenant_id', '3');
      window.localStorage.setItem('theme-config', JSON.stringify({ dark: false }));
    });
    await signIn(page, 'admin');

    // Pair: a one-time code on /printer/integration, exchanged by the agent for its token.
    await page.goto('/printer/integration');
    await expect(page.getByTestId('pairing-create')).toBeVisible();
    await page.getByTestId('pairing-name').fill('E2E line PC');
    await page.getByTestId('pairing-create').click();
    const code = (await page.getByTestId('pairing-code').innerText()).trim();
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const paired = await finished(runAgent(['pair', '--server', baseURL ?? '', '--code', code], configDir));
    expect(paired.code, paired.output).toBe(0);
    // The same code a second time is refused.
    const again = await finished(runAgent(['pair', '--server', baseURL ?? '', '--code', code], configDir + '-again'));
    expect(again.code).toBe(1);
    expect(again.output).toContain('already been used');
    agent = runAgent(['run', '--wait', '2'], configDir);
    await expect(page.getByTestId('agents-card').getByText('E2E line PC')).toBeVisible();
    await expect(page.getByTestId('agents-card').getByText('online')).toBeVisible({ timeout: 20_000 });

    // The printer the test plays, reached through that agent.
    await page.goto('/printer/devices');
    await page.getByTestId('printer-add').click();
    await page.getByTestId('printer-name').fill('E2E Zebra');
    await page.getByTestId('printer-host').fill('127.0.0.1');
    await page.getByTestId('printer-port').fill(String(printer.port));
    await choose(page, 'printer-agent', 'E2E line PC');
    await page.getByTestId('printer-save').click();
    await expect(page.getByRole('cell', { name: /E2E Zebra/ })).toBeVisible();

    // Print the demo carton's label from the labels table (next to PDF and CSV).
    await page.goto(`/purchase/eudr/raw-materials/${label.raw_material}`);
    const table = page.getByTestId('labels-card');
    await table.getByRole('searchbox').fill(label.code);
    await table.getByRole('searchbox').press('Enter');
    await expect(page.getByTestId('labels-table').getByText(label.code)).toBeVisible();
    await expect(page.getByTestId('labels-table').locator('tbody tr.p-table-row')).toHaveCount(1);
    await page.getByTestId('print-labels').click();
    await choose(page, 'print-printer', 'E2E Zebra');
    await expect(page.getByTestId('print-panel')).toContainText('1 label');
    await page.getByTestId('print-labels-run').click();
    await expect(page.getByTestId('print-queued')).toBeVisible();

    // The job turns `printed` in the print log; the printer got the label's ZPL.
    await page.goto('/printer/devices');
    const jobs = page.getByTestId('print-jobs');
    await expect(jobs.locator('tbody tr.p-table-row').first().getByTestId('job-status')).toHaveAttribute('data-status', 'printed', { timeout: 30_000 });
    await expect(jobs.locator('tbody tr.p-table-row').first()).toContainText('E2E Zebra');
    expect(printer.received()).toContain('^XA');
    expect(printer.received()).toContain(`/eudrtrace/${label.code}`);
    expect(printer.received().match(/\^XZ/g)).toHaveLength(1);
  } finally {
    agent?.kill();
    printer.server.close();
    await rm(configDir, { recursive: true, force: true });
  }
});
