/**
 * The query layer's boundary (docs/architecture.md "Web app"): ESLint refuses an inline query key or an
 * /api/ URL outside the API modules. These tests check that the rule catches them and that the repo's
 * ESLint config applies it where it should.
 */
import { ESLint, Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

type Entry = { selector: string; message: string };
// the frontend folder, where vitest runs
const eslint = new ESLint({ cwd: process.cwd() });
/** The repo config's no-restricted-syntax entries for a file. */
async function entriesFor(file: string): Promise<Entry[]> {
  const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown[]> };
  return (config.rules?.['no-restricted-syntax'] ?? []).slice(1) as Entry[];
}
const isQueryLayer = (entry: Entry) => entry.message.startsWith('Query keys and API URLs');

let queryLayerRules: Entry[] = [];
beforeAll(async () => {
  queryLayerRules = (await entriesFor('src/features/sales/components/SalesOrderForm.tsx')).filter(isQueryLayer);
}, 120_000);

const linter = new Linter({ configType: 'flat' });
const problems = (code: string) =>
  linter
    .verify(code, [
      {
        languageOptions: { ecmaVersion: 2022, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
        rules: { 'no-restricted-syntax': ['error', ...queryLayerRules] },
      },
    ])
    .map((m) => m.message);

describe('the query layer rule', () => {
  it('refuses inline query keys and /api/ URLs', () => {
    expect(queryLayerRules.length).toBeGreaterThan(0);
    expect(problems("useQuery({ queryKey: ['orders', tenant, id], queryFn })")).toHaveLength(1);
    expect(problems('client.invalidateQueries({ queryKey: [ORDERS_URL] })')).toHaveLength(1);
    expect(problems("const URL = '/api/products/'")).toHaveLength(1);
    expect(problems('get(`/api/orders/${id}/`)')).toHaveLength(1);
    expect(problems('const a = <RemoteSelect queryKey="/api/suppliers/" />')).toHaveLength(1);
    expect(problems('const a = <Thing queryKey={[URL, 1]} />')).toHaveLength(1);
  });

  it("lets code use an API module's query options and keys", () => {
    expect(problems('useQuery(salesOrderQueryOptions(tenant, id))')).toEqual([]);
    expect(problems('useQuery({ ...searchQueryOptions(tenant, text), enabled })')).toEqual([]);
    expect(problems('client.invalidateQueries({ queryKey: salesKeys.orders })')).toEqual([]);
    expect(problems('const a = <RemoteSelect queryKey={PRODUCTS_URL} />')).toEqual([]);
    expect(problems("navigate('/sales/orders')")).toEqual([]);
  });

  it('applies to components, pages and shared code, not to the API modules and tests', async () => {
    const guarded = async (file: string) => (await entriesFor(file)).some(isQueryLayer);
    for (const file of ['src/features/sales/components/SalesOrderForm.tsx', 'src/features/warehouse/pages/WarehouseLogisticsPage.tsx', 'src/shared/components/ServerTable.tsx']) {
      expect(await guarded(file)).toBe(true);
    }
    for (const file of ['src/features/sales/api/sales.ts', 'src/api/queries.ts', 'src/shared/comments/commentsApi.ts', 'src/features/sales/test/fixtures.ts']) {
      expect(await guarded(file)).toBe(false);
    }
  }, 120_000);
});
