import { execFileSync } from 'node:child_process';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parallelSearches } from '../src/tools/coding/search/grep-search.js';
import { comparePaths } from '../src/tools/coding/search/path-order.js';
import { findRipgrep } from '../src/tools/coding/search/ripgrep-detect.js';
import { createSearchTools } from '../src/tools/coding/search-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { makeSearchTree, type SearchTree } from './support/search-tree.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Names where ripgrep's order and JavaScript's `<` part: ".", "-", " " sort before "/"; "ｆ" (U+FF46) before "😀" in UTF-8 but not in UTF-16. */
const PIECES = ['a', 'b', 'A', '_', '.', '-', ' ', 'é', 'ｆ', '😀', '数', '~', '1'];

function randomName(next: () => number): string {
  let name = '';
  const length = 1 + Math.floor(next() * 4);
  for (let i = 0; i < length; i++) name += PIECES[Math.floor(next() * PIECES.length)];
  // Not a name the walk or the secret rules treat specially (".", "..", ".env…", ".git…").
  return name === '.' || name === '..' || name.startsWith('.') ? `x${name}` : name;
}

function randomPath(next: () => number): string {
  const depth = 1 + Math.floor(next() * 3);
  return Array.from({ length: depth }, () => randomName(next)).join('/');
}

/** Component by component, each name by its UTF-8 bytes: the walk ripgrep's `--sort path` does. */
function referenceOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = Buffer.compare(Buffer.from(x[i]!), Buffer.from(y[i]!));
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

describe('path order', () => {
  it('compares as ripgrep walks: folder by folder, names by UTF-8 bytes', () => {
    const next = random(11);
    for (let round = 0; round < 20_000; round++) {
      const a = randomPath(next);
      const b = next() < 0.3 ? `${a}${next() < 0.5 ? '/' : ''}${randomName(next)}` : randomPath(next);
      expect(Math.sign(comparePaths(a, b)), `${a} | ${b}`).toBe(Math.sign(referenceOrder(a, b)));
    }
    expect(['src/foo.ts', 'src/foo-bar.ts', 'src/foo/bar.ts', 'src/foo'].sort(comparePaths)).toEqual(['src/foo', 'src/foo/bar.ts', 'src/foo-bar.ts', 'src/foo.ts']);
  });
});

describe('grep and list_files over awkward names, both engines', () => {
  let tree: SearchTree;
  let rg: string | undefined;
  const names: string[] = [];

  beforeAll(async () => {
    const next = random(5);
    const files: Record<string, string> = {};
    for (const path of ['w/foo.ts', 'w/foo/bar.ts', 'w/foo-bar.ts', 'w/foo bar.ts', 'w/ｆ.txt', 'w/😀.txt']) {
      files[path] = `first ${path}\nsecond line\nthird ${path}\n`;
      names.push(path);
    }
    // Files whose names also name folders ("a" beside "a/…" is impossible, so "a.ts" beside "a/"…).
    while (Object.keys(files).length < 150) {
      const path = `w/${randomPath(next)}`;
      const clash = path in files || Object.keys(files).some((other) => other.startsWith(`${path}/`) || path.startsWith(`${other}/`));
      if (clash) continue;
      files[path] = `first ${path}\nsecond line\nthird ${path}\n`;
      names.push(path);
    }
    tree = await makeSearchTree(files);
    rg = await findRipgrep('auto');
  });

  afterAll(async () => {
    await rm(tree.base, { recursive: true, force: true });
  });

  async function output(engine: 'js' | 'rg', name: string, args: Record<string, unknown>): Promise<string> {
    const registry = new ToolRegistry(createSearchTools({ ripgrep: engine === 'js' ? false : 'auto' }));
    const result = await registry.invoke({ id: 'c', name, arguments: JSON.stringify(args) }, { workspace: tree.workspace });
    expect(result.isError, result.content).toBe(false);
    return result.content;
  }

  it('ripgrep --sort path walks them in path order', () => {
    expect(rg, 'rg was not found on PATH').toBeTruthy();
    const printed = execFileSync(rg!, ['--sort', 'path', '--files', '--null', 'w'], { cwd: tree.workspace }).toString('utf8').split('\0').filter(Boolean);
    expect(printed.length).toBe(names.length);
    expect(printed).toEqual([...names].sort(comparePaths));
  });

  it('list_files and grep print the same bytes in both engines, capped or not, and a cap gives the head', async () => {
    for (const args of [{ path: 'w' }, { pattern: '**/*' }]) expect(await output('rg', 'list_files', args)).toBe(await output('js', 'list_files', args));
    const listed = (await output('js', 'list_files', { path: 'w' })).split('\n');
    expect(listed).toEqual([...names].sort(comparePaths));
    expect(listed, 'the names put the two orders apart').not.toEqual([...names].sort());
    const parallelBefore = parallelSearches;
    const full = await output('js', 'grep', { pattern: '^(first|third)', path: 'w', max_results: 1000 });
    expect(await output('rg', 'grep', { pattern: '^(first|third)', path: 'w', max_results: 1000 })).toBe(full);
    for (const cap of [1, 2, 9, 120]) {
      const args = { pattern: '^(first|third)', path: 'w', max_results: cap };
      const [js, viaRg] = [await output('js', 'grep', args), await output('rg', 'grep', args)];
      expect(viaRg, `cap ${cap}`).toBe(js);
      expect(js.split('\n').slice(0, -1)).toEqual(full.split('\n').slice(0, cap));
    }
    // Every match was found by the ordered pass: it stopped at the cap or searched the whole tree.
    expect(parallelSearches).toBe(parallelBefore);
  });
});

describe('a word too rare to stop early', () => {
  it('falls back to the parallel search, which prints what the JavaScript engine prints', async () => {
    // 600 files, a match only in the last 40 in path order: the ordered pass finds none in its first 250 files and gives up.
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`many/d${String(i % 6)}/f${String(i).padStart(3, '0')}.txt`] = i % 6 === 5 && i >= 360 ? 'a rare needleword\nand needleword again\n' : 'hay\n';
    const tree = await makeSearchTree(files);
    try {
      const run = async (engine: 'js' | 'rg', maxResults: number) => {
        const registry = new ToolRegistry(createSearchTools({ ripgrep: engine === 'js' ? false : 'auto' }));
        const result = await registry.invoke({ id: 'c', name: 'grep', arguments: JSON.stringify({ pattern: 'needleword', path: 'many', max_results: maxResults }) }, { workspace: tree.workspace });
        expect(result.isError, result.content).toBe(false);
        return result.content;
      };
      const full = await run('js', 1000);
      expect(full.split('\n')).toHaveLength(80);
      for (const cap of [1000, 5, 79]) {
        const before = parallelSearches;
        const viaRg = await run('rg', cap);
        expect(parallelSearches, `cap ${cap}`).toBe(before + 1);
        expect(viaRg).toBe(await run('js', cap));
        if (cap < 80) {
          expect(viaRg.split('\n').slice(0, -1)).toEqual(full.split('\n').slice(0, cap));
          expect(viaRg.split('\n').at(-1)).toContain(`[${cap} matching lines shown; more exist (not counted`);
        }
      }
    } finally {
      await rm(tree.base, { recursive: true, force: true });
    }
  });
});

describe('a ripgrep without --include-zero (ripgrep 11)', () => {
  it('answers through the parallel search, as the JavaScript engine does', async () => {
    const rg = await findRipgrep('auto');
    expect(rg, 'rg was not found on PATH').toBeTruthy();
    const tree = await makeSearchTree();
    try {
      const old = join(tree.base, 'rg11.sh');
      await writeFile(old, `#!/bin/sh\nfor a in "$@"; do if [ "$a" = --include-zero ]; then echo "error: Found argument '--include-zero' which wasn't expected" >&2; exit 2; fi; done\nexec ${rg} "$@"\n`);
      await chmod(old, 0o755);
      for (const args of [{ pattern: 'needle' }, { pattern: 'needle', max_results: 3 }]) {
        const outputs = [];
        const before = parallelSearches;
        for (const ripgrep of [old, false] as const) {
          const registry = new ToolRegistry(createSearchTools({ ripgrep }));
          const result = await registry.invoke({ id: 'c', name: 'grep', arguments: JSON.stringify(args) }, { workspace: tree.workspace });
          expect(result.isError, result.content).toBe(false);
          outputs.push(result.content);
        }
        expect(outputs[0]).toBe(outputs[1]);
        expect(parallelSearches).toBe(before + 1);
      }
    } finally {
      await rm(tree.base, { recursive: true, force: true });
    }
  });
});
