import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restore, save } from './previous-assets.mjs';

const dirs: string[] = [];
function build(dist: string, files: string[]) {
  rmSync(dist, { recursive: true, force: true }); // vite empties dist/
  mkdirSync(join(dist, 'assets'), { recursive: true });
  for (const name of files) writeFileSync(join(dist, 'assets', name), name);
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the previous release\'s assets', () => {
  it('stay served after the next build, one release back only', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-'));
    dirs.push(root);
    const dist = join(root, 'dist');
    const keep = join(root, 'keep');

    build(dist, ['index-A1.js', 'page-A1.js']);
    save(dist, keep);
    build(dist, ['index-B2.js', 'page-A1.js']);
    expect(restore(dist, keep)).toEqual(['index-A1.js']);
    expect(readdirSync(join(dist, 'assets')).sort()).toEqual(['index-A1.js', 'index-B2.js', 'page-A1.js']);
    expect(JSON.parse(readFileSync(join(dist, '.previous-assets.json'), 'utf8'))).toEqual(['index-A1.js']);

    save(dist, keep); // release C replaces B: A's file, restored last time, is not carried again
    build(dist, ['index-C3.js']);
    expect(restore(dist, keep).sort()).toEqual(['index-B2.js', 'page-A1.js']);
    expect(readdirSync(join(dist, 'assets')).sort()).toEqual(['index-B2.js', 'index-C3.js', 'page-A1.js']);
  });

  it('does nothing on a first build', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-'));
    dirs.push(root);
    expect(save(join(root, 'dist'), join(root, 'keep'))).toEqual([]);
    build(join(root, 'dist'), ['index-A1.js']);
    expect(restore(join(root, 'dist'), join(root, 'keep'))).toEqual([]);
  });
});
