import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { PHONE, axeClean, fitsThePhone, phoneSetup } from './phone';
import { SERVER_SHELL_AVAILABLE, serverShell } from './serverShell';

/**
 * Delivery health on the e-mail log (/core/email-scenarios?tab=log) for the company's administrator:
 * counts by status and the failed and maybe-sent messages, a failed one retried from there (it leaves
 * through the local outbox of the test server and drops off the list), a maybe-sent one retried only
 * after a question. In the light and the dark theme and on a phone, with axe finding no critical or
 * serious violation.
 *
 * The demo's messages were all sent; two of them are turned into a failed and a maybe-sent one in the
 * test server's database (serverShell.ts), as an SMTP outage would leave them.
 */

const BREAK_TWO = `
import json, sys
from django.db import transaction
from apps.notifications.models import EmailMessage
from apps.tenancy.context import tenant_context

with transaction.atomic(), tenant_context(3):
    failed, maybe = list(EmailMessage.objects.filter(status="sent").order_by("pk")[:2])
    EmailMessage.objects.filter(pk=failed.pk).update(
        status="failed", attempts=3, last_error=f"554 5.7.1 Message rejected (e2e {failed.pk})"
    )
    EmailMessage.objects.filter(pk=maybe.pk).update(
        status="uncertain", last_error=f"Timed out after DATA (e2e {maybe.pk})"
    )
sys.stdout.write(json.dumps({"failed": failed.pk, "maybe": maybe.pk}) + "\\n")
`;

function breakTwoMessages(): { failed: number; maybe: number } {
  const out = serverShell(BREAK_TWO);
  const line = out.trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(line) as { failed: number; maybe: number };
}

async function setTheme(page: Page, dark: boolean): Promise<void> {
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  await page.evaluate((value) => {
    const stored = JSON.parse(window.localStorage.getItem('theme-config') ?? '{}') as Record<string, unknown>;
    window.localStorage.setItem('theme-config', JSON.stringify({ ...stored, dark: value }));
  }, dark);
}

function messageRow(page: Page, marker: string) {
  return page.getByTestId('health-message').filter({ hasText: marker });
}

test.skip(!SERVER_SHELL_AVAILABLE, 'breaks two messages in the database of the server the tests start');

test('the administrator sees delivery health and retries a failed message, in the light and the dark theme', async ({ page }) => {
  const broken = breakTwoMessages();
  await signIn(page, 'admin');
  await page.evaluate(() => window.localStorage.setItem('tenant_id', '3'));

  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await page.goto('/core/email-scenarios?tab=log');
    await expect(page.locator('html')).toHaveClass(dark ? /p-dark/ : /^(?!.*p-dark)/);
    const health = page.getByTestId('email-health');
    await expect(health).toBeVisible();
    await expect(health.getByTestId('health-sent')).toContainText('Sent');
    await expect(messageRow(page, `(e2e ${broken.failed})`)).toBeVisible();
    await expect(messageRow(page, `(e2e ${broken.maybe})`)).toContainText('Maybe sent');
    await axeClean(page, dark ? 'health, dark' : 'health, light');
  }

  const failed = messageRow(page, `(e2e ${broken.failed})`);
  const retried = page.waitForResponse((r) => r.url().includes(`/api/core/email-log/${broken.failed}/retry/`));
  await failed.getByRole('button', { name: /^Retry/ }).click();
  expect((await retried).status()).toBe(200);
  await expect(page.getByText('Queued again')).toBeVisible();
  await expect(failed).toHaveCount(0); // sent through the outbox: nothing to look after any more

  // The maybe-sent message asks first; keeping it sends nothing.
  const maybe = messageRow(page, `(e2e ${broken.maybe})`);
  await maybe.getByRole('button', { name: /^Retry/ }).click();
  const question = page.getByRole('tooltip').filter({ hasText: 'Retry a message that may have arrived?' });
  await expect(question).toBeVisible();
  await axeClean(page, 'maybe-sent question, dark');
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  await expect(maybe).toBeVisible();

});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('delivery health fits the screen in the dark theme and asks before retrying a maybe-sent message', async ({ page }) => {
    const broken = breakTwoMessages();
    await phoneSetup(page, 'dark');
    await signIn(page, 'admin');
    await page.goto('/core/email-scenarios?tab=log');
    await expect(page.locator('html')).toHaveClass(/p-dark/);
    const maybe = messageRow(page, `(e2e ${broken.maybe})`);
    await expect(maybe).toBeVisible();
    await fitsThePhone(page, 'health on a phone');
    await axeClean(page, 'health on a phone');

    await maybe.getByRole('button', { name: /^Retry/ }).click();
    const question = page.getByRole('tooltip').filter({ hasText: 'Retry a message that may have arrived?' });
    await expect(question).toBeVisible();
    await fitsThePhone(page, 'maybe-sent question on a phone');
    const retried = page.waitForResponse((r) => r.url().includes(`/api/core/email-log/${broken.maybe}/retry/`));
    await question.getByRole('button', { name: 'Retry' }).click();
    expect((await retried).status()).toBe(200);
    await expect(maybe).toHaveCount(0);
  });
});
