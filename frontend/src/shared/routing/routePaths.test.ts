/**
 * Route paths come from one module (docs/architecture.md "Web app"): ESLint refuses a path literal given
 * to navigate() or as the `to` / `href` of a Link, NavLink, Navigate or Button outside
 * src/shared/routing/paths.ts. These tests check that the rule catches them, lets the paths module's
 * builders through, and that the repo's ESLint config applies it where it should.
 */
import { ESLint, Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

type Entry = { selector: string; message: string };
// the frontend folder, where vitest runs
const eslint = new ESLint({ cwd: process.cwd() });
/** The repo config's no-restricted-syntax entries in force for a file (none where the rule is off). */
async function entriesFor(file: string): Promise<Entry[]> {
  const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown[]> };
  const [severity, ...entries] = config.rules?.['no-restricted-syntax'] ?? [];
  return severity === 0 || severity === 'off' ? [] : (entries as Entry[]);
}
const isRoutePath = (entry: Entry) => entry.message.startsWith('Route paths come from');

let routePathRules: Entry[] = [];
beforeAll(async () => {
  routePathRules = (await entriesFor('src/features/sales/pages/SalesOrderDetailPage.tsx')).filter(isRoutePath);
}, 120_000);

const linter = new Linter({ configType: 'flat' });
const problems = (code: string) =>
  linter
    .verify(code, [
      {
        languageOptions: { ecmaVersion: 2022, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
        rules: { 'no-restricted-syntax': ['error', ...routePathRules] },
      },
    ])
    .map((m) => m.message);

describe('the route path rule', () => {
  it('refuses path literals given to navigate()', () => {
    expect(routePathRules.length).toBeGreaterThan(0);
    expect(problems("navigate('/sales/orders')")).toHaveLength(1);
    expect(problems("void navigate('/product', { replace: true })")).toHaveLength(1);
    expect(problems('navigate(`/product/${id}`)')).toHaveLength(1);
    expect(problems('navigate(`/user/${user.id}/edit`)')).toHaveLength(1);
    expect(problems("await navigate('/')")).toHaveLength(1);
  });

  it('refuses path literals as the to or href of a link or button', () => {
    expect(problems('const a = <Link to="/settings/company">x</Link>')).toHaveLength(1);
    expect(problems("const a = <Link to={'/'}>x</Link>")).toHaveLength(1);
    expect(problems('const a = <NavLink to={`/purchase/eudr/raw-materials/${d.id}`}>x</NavLink>')).toHaveLength(1);
    expect(problems('const a = <Navigate to="/auth/login" replace />')).toHaveLength(1);
    expect(problems('const a = <Button href="/product/create">x</Button>')).toHaveLength(1);
    expect(problems('const a = <Button href={`/product/${id}`}>x</Button>')).toHaveLength(1);
  });

  it("lets code use the paths module's builders and other strings", () => {
    expect(problems('navigate(paths.salesOrders())')).toEqual([]);
    expect(problems('navigate(paths.product(id), { replace: true })')).toEqual([]);
    expect(problems('navigate(portal.listPath)')).toEqual([]);
    expect(problems('navigate(-1)')).toEqual([]);
    expect(problems("navigate('edit')")).toEqual([]);
    expect(problems('const a = <Link to={paths.companySettings()}>x</Link>')).toEqual([]);
    expect(problems('const a = <Button href={AGENT_DOWNLOAD_URL}>x</Button>')).toEqual([]);
    expect(problems('const a = <a href="https://example.org/">x</a>')).toEqual([]);
    // /api/ URLs are the query layer's rule, not this one
    expect(problems("const a = <Button href='/api/printing/agent/'>x</Button>")).toEqual([]);
    expect(problems("pathname.startsWith('/supplier/')")).toEqual([]);
  });

  it('applies to app, features and shared code, not to tests', async () => {
    const guarded = async (file: string) => (await entriesFor(file)).some(isRoutePath);
    for (const file of [
      'src/features/sales/pages/SalesOrderDetailPage.tsx',
      'src/features/users/components/UsersList.tsx',
      'src/app/routing/NotFoundPage.tsx',
      'src/shared/components/PageContainer.tsx',
      'src/features/sales/api/sales.ts',
    ]) {
      expect(await guarded(file)).toBe(true);
    }
    for (const file of ['src/features/sales/test/orderForm.test.tsx', 'src/shared/routing/routePaths.test.ts']) {
      expect(await guarded(file)).toBe(false);
    }
  }, 120_000);
});
