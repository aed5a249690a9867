/**
 * The phone camera as the warehouse's scanner, in the served app with its real response headers: Chromium
 * shows a fake camera that films a QR code (a Y4M video made here with the backend's QR library), the
 * warehouse user opens the camera on a container's page and the code arrives in the scan log. It fails
 * when the page may not use the camera (Permissions-Policy) or may not compile the QR reader's
 * WebAssembly (Content-Security-Policy), which no unit test sees.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, test } from '@playwright/test';
import { signIn } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CODE = 'CAMERA0QR0TEST';

/** One 320x240 frame (YUV 4:2:0) of the QR code of `text`, black on white, as Chromium's fake camera
 *  reads it (it plays the file in a loop). */
function qrVideo(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'camera-')), 'qr.y4m');
  const script = `
import sys, segno
width, height = 320, 240
matrix = segno.make_qr(sys.argv[1], error="m").matrix
modules = len(matrix) + 8  # the quiet zone: four modules on each side
scale = min(width, height) // modules
left, top = (width - modules * scale) // 2, (height - modules * scale) // 2
luma = bytearray([235]) * (width * height)
for row, line in enumerate(matrix):
    for col, dark in enumerate(line):
        if dark:
            for y in range(top + (row + 4) * scale, top + (row + 5) * scale):
                start = y * width + left + (col + 4) * scale
                luma[start:start + scale] = bytes([16]) * scale
with open(sys.argv[2], "wb") as out:
    out.write(b"YUV4MPEG2 W320 H240 F10:1 Ip A1:1 C420jpeg\\nFRAME\\n")
    out.write(luma + bytes([128]) * (width * height // 2))
`;
  execFileSync(join(ROOT, '.tools/bin/uv'), ['run', '--frozen', '--quiet', 'python', '-c', script, text, file], { cwd: join(ROOT, 'backend') });
  return file;
}

test('the warehouse user scans a QR code with the phone camera', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${qrVideo(CODE)}`,
    ],
  });
  try {
    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, permissions: ['camera'], serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Permissions policy/i.test(message.text())) blocked.push(message.text());
    });
    await signIn(page, 'warehouse');
    await page.goto('/warehouse/shipments');
    await page.getByText('TGHU8912347').first().click();
    await expect(page.getByTestId('scan-field')).toBeVisible();
    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    await expect(page.locator('video')).toBeVisible();
    // The reader looks four times a second; the code is then scanned as if typed.
    await expect(page.getByTestId('scan-log')).toContainText(CODE, { timeout: 30_000 });
    expect(blocked).toEqual([]);
  } finally {
    await browser.close();
  }
});
