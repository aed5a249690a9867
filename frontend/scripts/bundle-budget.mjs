// Measures the JavaScript (gzip) that loads before the first page, from the build manifest
// (docs/design.md section 10): the app's entry with its static imports, plus the layouts and the page
// for a signed-in first page; the trace entry on its own. Exits 1 when a budget is exceeded.
// Run after `npm run build`: node scripts/bundle-budget.mjs
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the manifest: ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

function gzipKb(keys) {
  let bytes = 0;
  for (const key of keys) {
    const file = manifest[key].file;
    if (file.endsWith('.js')) bytes += gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  }
  return bytes / 1024;
}

function find(suffix) {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix}`);
  return key;
}

// The texts of one language load before the first render (src/main.tsx): count the larger bundle.
const texts = ['src/i18n/bundles/en.ts', 'src/i18n/bundles/zh.ts'].map((key) => find(key));
const largerTexts = texts.reduce((a, b) => (gzipKb(closure([a])) >= gzipKb(closure([b])) ? a : b));

// `limit` is enforced; `null` is reported only (see frontend/README.md "Bundle budget").
const budgets = [
  { name: 'app entry and its texts (before any page chunk)', keys: ['index.html', largerTexts], limit: 250 },
  { name: 'login page (entry + texts + login)', keys: ['index.html', largerTexts, find('features/auth/pages/LoginPage.tsx')], limit: 250 },
  {
    name: 'signed-in home (entry + texts + layout + home)',
    keys: ['index.html', largerTexts, find('app/layouts/LayoutSwitch.tsx'), find('app/layouts/DefaultLayout.tsx'), find('features/home/pages/HomePage.tsx')],
    limit: 250,
  },
  { name: 'public trace page', keys: ['trace.html'], limit: 100 },
];

let failed = false;
for (const budget of budgets) {
  const kb = gzipKb(closure(budget.keys));
  if (budget.limit === null) {
    console.log(`info ${budget.name}: ${kb.toFixed(1)} KB gzip JS`);
    continue;
  }
  const ok = kb <= budget.limit;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${budget.name}: ${kb.toFixed(1)} KB gzip JS (budget ${budget.limit} KB)`);
}
process.exit(failed ? 1 : 0);
