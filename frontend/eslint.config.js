// ESLint 9 flat config. Import boundaries (docs/style.md, bulletproof-react): app -> features -> shared,
// and no feature imports another feature; the trace entry stays free of Ant Design.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const crossFeatureZones = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [`./${feature}`],
  message: 'A feature must not import another feature; move shared code to src/shared.',
}));

// docs/style.md rule 10: user-visible text comes from the locale files.
const textInLocales = [
  { selector: 'JSXText[value=/[A-Za-z\\u4e00-\\u9fff]/]', message: 'User-visible text belongs in src/i18n/<lang>/<namespace>.json.' },
  {
    selector: 'JSXAttribute[name.name=/^(title|placeholder|aria-label|alt|label|okText|cancelText|description|subTitle|tooltip)$/] > Literal[value=/[A-Za-z\\u4e00-\\u9fff]/]',
    message: 'User-visible text belongs in src/i18n/<lang>/<namespace>.json.',
  },
];

// docs/architecture.md "Web app": one query layer. Query keys and API URLs are written only in the API
// modules (src/api/, a feature's api/ folder, a shared module's api.ts or *Api.ts); everything else uses
// their query-option factories (`xxxQueryOptions(...)`) and key objects (`xxxKeys.all` to invalidate).
const QUERY_LAYER = 'Query keys and API URLs belong in an api/ module: use its xxxQueryOptions(...) or xxxKeys.';
export const queryLayerRules = [
  { selector: 'Property[key.name="queryKey"] > ArrayExpression', message: QUERY_LAYER },
  { selector: 'JSXAttribute[name.name="queryKey"] ArrayExpression', message: QUERY_LAYER },
  { selector: 'Literal[value=/^\\/api\\//]', message: QUERY_LAYER },
  { selector: 'TemplateElement[value.raw=/^\\/api\\//]', message: QUERY_LAYER },
];
export const API_MODULES = ['src/api/**', 'src/**/api/**', 'src/**/api.ts', 'src/**/*Api.ts'];

// docs/architecture.md "Web app": every route path comes from src/shared/routing/paths.ts (`paths.salesOrder(id)`).
// A path literal ("/..." or `/...${x}`) given to navigate() or as the `to` / `href` of a Link, NavLink,
// Navigate or Button is refused; /api/ URLs are the query layer's rule above.
const ROUTE_PATHS = 'Route paths come from src/shared/routing/paths.ts: use paths.xxx(...).';
const PATH_START = '/^\\/(?!api\\/)/';
const LINKS = 'JSXOpeningElement[name.name=/^(Link|NavLink|Navigate|Button)$/] > JSXAttribute[name.name=/^(to|href)$/]';
export const routePathRules = [
  { selector: `CallExpression[callee.name="navigate"] > Literal:first-child[value=${PATH_START}]`, message: ROUTE_PATHS },
  { selector: `CallExpression[callee.name="navigate"] > TemplateLiteral:first-child > TemplateElement:first-child[value.raw=${PATH_START}]`, message: ROUTE_PATHS },
  { selector: `${LINKS} > Literal[value=${PATH_START}]`, message: ROUTE_PATHS },
  { selector: `${LINKS} > JSXExpressionContainer > Literal[value=${PATH_START}]`, message: ROUTE_PATHS },
  { selector: `${LINKS} > JSXExpressionContainer > TemplateLiteral > TemplateElement:first-child[value.raw=${PATH_START}]`, message: ROUTE_PATHS },
];

export default tseslint.config(
  { ignores: ['dist', 'dev-dist', 'node_modules', 'playwright-report', 'test-results', 'src/api/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: {
      'import/resolver': { typescript: { project: ['./tsconfig.app.json', './tsconfig.node.json'], noWarnOnMultipleProjects: true } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-deprecated': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: ['./src/app', './src/features'], message: 'shared must not depend on app or features.' },
            { target: './src/api', from: ['./src/app', './src/features'], message: 'The API client must not depend on app or features.' },
            { target: './src/i18n', from: ['./src/app', './src/features'] },
            { target: './src/features', from: './src/app', message: 'Features must not import the app shell.' },
            { target: './src/trace', from: ['./src/app', './src/features', './src/api'], message: 'The trace page is its own light entry.' },
            ...crossFeatureZones,
          ],
        },
      ],
      'import/no-cycle': 'off',
      'no-restricted-syntax': ['error', ...textInLocales],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'dayjs', message: "Import dayjs from '@/shared/utils/dayjs': it follows the language and stays out of the app's entry." }] },
      ],
    },
  },
  { files: ['src/shared/utils/dayjs.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [...API_MODULES, 'src/**/test/**'],
    rules: { 'no-restricted-syntax': ['error', ...textInLocales, ...queryLayerRules, ...routePathRules] },
  },
  {
    files: API_MODULES,
    ignores: ['src/**/test/**'],
    rules: { 'no-restricted-syntax': ['error', ...textInLocales, ...routePathRules] },
  },
  {
    files: ['src/trace/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['antd', 'antd/*', '@ant-design/*', '@/api/http', 'i18next', 'react-i18next'], message: 'The trace page stays light: plain React and CSS.' }] },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-syntax': 'off',
    },
  },
  {
    files: ['vite.config.ts', 'playwright.config.ts', 'e2e/**/*.ts', 'scripts/**/*.{js,mjs}', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node }, sourceType: 'module' },
  },
);
