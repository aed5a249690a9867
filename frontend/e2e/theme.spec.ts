import { expect, test } from '@playwright/test';
import { openThemeSettings, signIn } from './helpers';

test('dark mode, primary colour and preset survive a reload and apply before first paint', async ({ page }) => {
  await signIn(page, 'admin');
  await openThemeSettings(page);
  const drawer = page.getByTestId('theme-configurator');
  await expect(drawer).toBeVisible();

  await drawer.getByTestId('theme-dark').click();
  await expect(page.locator('html')).toHaveClass(/p-dark/);
  await drawer.getByTestId('primary-emerald').click();
  await drawer.getByTestId('surface-zinc').click();
  await drawer.getByText('Nora', { exact: true }).click();
  await drawer.getByTestId('theme-ripple').click();

  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('theme-config') ?? '{}') as Record<string, unknown>);
  expect(stored).toMatchObject({ dark: true, primary: 'emerald', surface: 'zinc', preset: 'Nora', ripple: false });

  // index.html carries the pre-paint script inline, ahead of the app's module script.
  const html = await (await page.request.get('/')).text();
  expect(html.indexOf('theme-config')).toBeGreaterThan(-1);
  expect(html.indexOf('theme-config')).toBeLessThan(html.indexOf('type="module"'));

  // After a reload the class is on <html> as soon as the document is parsed, before the app runs.
  await page.reload({ waitUntil: 'commit' });
  await page.waitForSelector('html.p-dark', { state: 'attached' });
  const early = await page.evaluate(() => ({
    dark: document.documentElement.classList.contains('p-dark'),
    background: document.documentElement.style.backgroundColor,
  }));
  expect(early.dark).toBe(true);
  expect(early.background).not.toBe('');

  await expect(page.getByTestId('layout-default')).toBeVisible();
  // Nora: square corners on buttons; the emerald primary on the primary button.
  await openThemeSettings(page);
  const close = page.getByTestId('theme-configurator').getByRole('button', { name: 'Close' }).last();
  const radius = await close.evaluate((el) => getComputedStyle(el).borderTopLeftRadius);
  expect(radius).toBe('2px');
  await expect(page.getByTestId('theme-configurator').getByTestId('primary-emerald')).toHaveAttribute('aria-checked', 'true');

  // Back to light.
  await page.getByTestId('theme-configurator').getByTestId('theme-dark').click();
  await expect(page.locator('html')).not.toHaveClass(/p-dark/);
});

test('presets change the look at run time', async ({ page }) => {
  await signIn(page, 'admin');
  await openThemeSettings(page);
  const drawer = page.getByTestId('theme-configurator');
  const close = drawer.getByRole('button', { name: 'Close' }).last();
  const radiusOf = () => close.evaluate((el) => getComputedStyle(el).borderTopLeftRadius);
  await drawer.getByText('Aura', { exact: true }).click();
  const aura = await radiusOf();
  await drawer.getByText('Nora', { exact: true }).click();
  await expect.poll(radiusOf).not.toBe(aura);
});
