/**
 * Keeps the previous release's hashed files through an upgrade (docs/operations.md, "Upgrades").
 *
 * During a rolling upgrade a browser that loaded the old index.html asks any node for the old release's
 * chunks; a node already on the new release would answer 404 and the page would break. So a build keeps
 * the files of the release it replaces: `save` (before `vite build`, which empties dist/) puts this
 * release's own assets aside, `restore` (after) copies back those the new build does not have and lists
 * them in dist/.previous-assets.json. Only one release back is kept: files that were themselves restored
 * are not saved again.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIST = '.previous-assets.json';

export function save(dist, keep) {
  rmSync(keep, { recursive: true, force: true });
  const assets = join(dist, 'assets');
  if (!existsSync(assets)) return [];
  const restored = new Set(existsSync(join(dist, LIST)) ? JSON.parse(readFileSync(join(dist, LIST), 'utf8')) : []);
  const own = readdirSync(assets).filter((name) => !restored.has(name));
  mkdirSync(keep, { recursive: true });
  for (const name of own) copyFileSync(join(assets, name), join(keep, name));
  return own;
}

export function restore(dist, keep) {
  if (!existsSync(keep)) return [];
  const assets = join(dist, 'assets');
  mkdirSync(assets, { recursive: true });
  const present = new Set(readdirSync(assets));
  const added = readdirSync(keep).filter((name) => !present.has(name));
  for (const name of added) copyFileSync(join(keep, name), join(assets, name));
  writeFileSync(join(dist, LIST), JSON.stringify(added.sort(), null, 0));
  rmSync(keep, { recursive: true, force: true });
  return added;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dist = join(root, 'dist');
  const keep = join(root, '.previous-assets');
  const step = process.argv[2];
  if (step === 'save') save(dist, keep);
  else if (step === 'restore') restore(dist, keep);
  else {
    console.error('usage: previous-assets.mjs save|restore');
    process.exit(2);
  }
}
