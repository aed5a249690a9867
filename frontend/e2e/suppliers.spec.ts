import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/** A 1x1 transparent PNG (67 bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==',
  'base64',
);
/** 2560 bytes of text: shown as "2.5 KB" (base 1024). */
const TXT = Buffer.from('mill certificate line\n'.repeat(116) + 'x'.repeat(8));

test('comments on a supplier: add with attachments, see their sizes, edit and delete own comment', async ({ page }) => {
  expect(TXT.length).toBe(2560);
  await signIn(page, 'admin');
  await page.evaluate(() => window.localStorage.setItem('tenant_id', '3'));
  await page.goto('/purchase/suppliers');
  await page.locator('.p-table-row').first().click();
  await expect(page).toHaveURL(/\/purchase\/suppliers\/\d+$/);

  await page.getByRole('tab', { name: 'Comments' }).click();
  const panel = page.getByTestId('comments-panel');
  const text = `Mill certificate checked ${Date.now()}`;
  await panel.getByRole('textbox', { name: 'Write a comment…' }).fill(text);
  await panel.locator('input[type="file"]').setInputFiles([
    { name: 'pixel.png', mimeType: 'image/png', buffer: PNG },
    { name: 'certificate.txt', mimeType: 'text/plain', buffer: TXT },
  ]);
  const pending = panel.getByTestId('pending-file');
  await expect(pending).toHaveCount(2);
  await expect(pending.filter({ hasText: 'certificate.txt' })).toContainText('2.5 KB');
  await panel.getByRole('button', { name: 'Send' }).click();

  const comment = panel.getByTestId('comment').filter({ hasText: text });
  await expect(comment).toBeVisible();
  await expect(pending).toHaveCount(0);
  const attachments = comment.getByTestId('comment-attachment');
  await expect(attachments).toHaveCount(2);
  await expect(attachments.filter({ hasText: 'certificate.txt' })).toContainText('2.5 KB');
  await expect(attachments.filter({ hasText: 'pixel.png' })).toContainText(`${PNG.length} Bytes`);
  // The image gets a preview, the text file an icon.
  await expect(attachments.filter({ hasText: 'pixel.png' }).locator('img')).toBeVisible();

  // Edit own comment.
  await comment.getByRole('button', { name: 'Edit' }).click();
  const edited = `${text} (edited)`;
  await comment.getByRole('textbox', { name: 'Edit' }).fill(edited);
  await comment.getByRole('button', { name: 'Save' }).click();
  const updated = panel.getByTestId('comment').filter({ hasText: edited });
  await expect(updated).toBeVisible();
  await expect(updated).toContainText('edited');

  // After a reload the comment and its attachments are still there.
  await page.reload();
  await page.getByRole('tab', { name: 'Comments' }).click();
  await expect(panel.getByTestId('comment').filter({ hasText: edited }).getByTestId('comment-attachment')).toHaveCount(2);

  // Delete own comment (asks first).
  await panel.getByTestId('comment').filter({ hasText: edited }).getByRole('button', { name: 'Delete' }).click();
  await page.locator('.p-popconfirm-buttons').getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByTestId('comment').filter({ hasText: edited })).toHaveCount(0);
});
