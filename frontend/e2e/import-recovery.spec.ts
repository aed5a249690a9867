import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { SERVER_SHELL_AVAILABLE, serverShell } from './serverShell';

/**
 * A stuck import is moved on from the page (apps/common/import_jobs.py, docstring 7): the products
 * import dialog finds the running import of its kind, sees that no worker holds it, and offers Retry
 * (the same file runs again as a new job and finishes: the e2e server runs tasks inline) and Cancel
 * (after a confirmation; nothing is imported).
 *
 * The stuck job is made the way a killed worker leaves one: a job row marked running, with its stored
 * file, and no worker holding its advisory lock (PostgreSQL). On SQLite, where no lock tells a dead
 * worker from a live one, it is also dated past IMPORT_JOB_STALE_SECONDS, which marks it stuck there.
 * It is written straight into the test server's database (serverShell.ts).
 */

const STUCK_JOB = `
import os, sys
from datetime import timedelta
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.utils import timezone
from apps.common.import_jobs import stale_after
from apps.common.models import ImportJob
from apps.tenancy.context import tenant_context
from apps.users.models import User

csv = os.environ["STUCK_CSV"].encode()
with transaction.atomic(), tenant_context(3):
    job = ImportJob(
        kind="products.product",
        importer="apps.products.importers.ProductImporter",
        file_name="stuck-products.csv",
        status="running",
        started_at=timezone.now(),
        started_by=User.objects.get(username="admin"),
    )
    job.file.save("stuck-products.csv", ContentFile(csv), save=False)
    job.save()
    if connection.vendor != "postgresql":
        ImportJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - stale_after() - timedelta(minutes=1))
sys.stdout.write(f"job={job.pk}\\n")
`;

/** A products import left running by a worker that died; answers its id. */
function makeStuckImport(rows: string[]): number {
  const csv = ['Article number,Name,Weight per carton (kg)', ...rows].join('\n') + '\n';
  const out = serverShell(STUCK_JOB, { STUCK_CSV: csv });
  const match = /job=(\d+)/.exec(out);
  if (!match) throw new Error(`no job made: ${out}`);
  return Number(match[1]);
}

async function openProductImport(page: Page): Promise<void> {
  await signIn(page, 'admin');
  await page.evaluate(() => window.localStorage.setItem('tenant_id', '3'));
  await page.goto('/product');
  await page.getByTestId('product-import').click();
  await expect(page.getByRole('dialog')).toBeVisible();
}

test.skip(!SERVER_SHELL_AVAILABLE, 'makes its stuck job in the database of the server the tests start');

test('a stuck import is retried from the import dialog with the same file and finishes', async ({ page }) => {
  const stuck = makeStuckImport(['E2E-RETRY-1,Retried carton one,0.35', 'E2E-RETRY-2,Retried carton two,0.40']);
  await openProductImport(page);
  const dialog = page.getByRole('dialog');

  await expect(dialog.getByTestId('import-running')).toContainText('stuck-products.csv');
  const actions = dialog.getByTestId('import-job-actions');
  await expect(actions).toContainText('This import has stopped');
  const retried = page.waitForResponse((r) => r.url().includes(`/api/common/imports/${stuck}/retry/`) && r.request().method() === 'POST');
  await actions.getByRole('button', { name: 'Retry import' }).click();
  expect((await retried).status()).toBe(202);

  await expect(dialog.getByText('Imported: 2 created, 0 updated.')).toBeVisible();
  await expect(dialog.getByTestId('import-job-actions')).toHaveCount(0);
  await expect(dialog.getByTestId('import-progress')).toHaveCount(0);
  await dialog.locator('.p-modal-footer').getByRole('button', { name: 'Close' }).click();

  const search = page.getByPlaceholder('Article number, name, HS code…');
  await search.fill('E2E-RETRY');
  await search.press('Enter');
  await expect(page.locator('.p-table-row', { hasText: 'E2E-RETRY-1' })).toBeVisible();
  await expect(page.locator('.p-table-row', { hasText: 'E2E-RETRY-2' })).toBeVisible();

  // The stuck job stays in the history as failed, its file handed to the retry.
  const jobs = await page.evaluate(async (id) => {
    const token = window.localStorage.getItem('accessToken') ?? '';
    const answer = await fetch(`/api/common/imports/${id}/?tenant_id=3`, { headers: { Authorization: `Bearer ${token}` } });
    return (await answer.json()) as { data: { status: string; can_retry: boolean } };
  }, stuck);
  expect(jobs.data).toMatchObject({ status: 'failed', can_retry: false });
});

test('a stuck import is cancelled after a confirmation and imports nothing', async ({ page }) => {
  makeStuckImport(['E2E-CANCEL-1,Cancelled carton,0.35']);
  await openProductImport(page);
  const dialog = page.getByRole('dialog');
  const actions = dialog.getByTestId('import-job-actions');
  await expect(actions).toContainText('This import has stopped');

  await actions.getByRole('button', { name: 'Cancel import' }).click();
  const confirm = page.getByRole('tooltip').filter({ hasText: 'Cancel this import?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await expect(actions).toBeVisible();

  await actions.getByRole('button', { name: 'Cancel import' }).click();
  await confirm.getByRole('button', { name: 'Cancel import' }).click();
  await expect(dialog.getByTestId('import-notice')).toContainText('The import was cancelled; nothing was imported.');
  await expect(dialog.getByTestId('import-progress')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

  const search = page.getByPlaceholder('Article number, name, HS code…');
  await search.fill('E2E-CANCEL');
  await search.press('Enter');
  await expect(page.getByText('Nothing matches the search or filters')).toBeVisible();
});
