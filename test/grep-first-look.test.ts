import { rm } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { parallelSearches } from '../src/tools/coding/search/grep-search.js';
import { createSearchTools } from '../src/tools/coding/search-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { makeSearchTree } from './support/search-tree.js';

// The ordered pass looks once after 64 files: with no match by then (the default limit) it leaves
// the word to the parallel search; one match is enough to go on. The output is the same either way.
async function grep(workspace: string, ripgrep: false | 'auto', args: Record<string, unknown>): Promise<string> {
  const registry = new ToolRegistry(createSearchTools({ ripgrep }));
  const result = await registry.invoke({ id: 'c1', name: 'grep', arguments: JSON.stringify(args) }, { workspace });
  expect(result.isError, result.content).toBe(false);
  return result.content;
}

/** 200 files in path order; `hit(i)` says how many lines of file i hold the word. */
async function treeOf(hit: (i: number) => number) {
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`d/f${String(i).padStart(3, '0')}.txt`] = `${'the word\n'.repeat(hit(i))}hay\n`;
  return makeSearchTree(files);
}

it('no match in the first 64 files: the parallel search answers', async () => {
  const tree = await treeOf((i) => (i >= 100 ? 3 : 0));
  try {
    const before = parallelSearches;
    const viaRg = await grep(tree.workspace, 'auto', { pattern: 'word' });
    expect(parallelSearches).toBe(before + 1);
    expect(viaRg).toBe(await grep(tree.workspace, false, { pattern: 'word' }));
  } finally {
    await rm(tree.base, { recursive: true, force: true });
  }
});

it('one match in the first 64 files: the ordered pass goes on and answers alone', async () => {
  const tree = await treeOf((i) => (i === 10 ? 1 : i >= 100 ? 3 : 0));
  try {
    const before = parallelSearches;
    const viaRg = await grep(tree.workspace, 'auto', { pattern: 'word' });
    expect(parallelSearches).toBe(before);
    expect(viaRg).toBe(await grep(tree.workspace, false, { pattern: 'word' }));
    expect(viaRg.split('\n').at(-1)).toContain('[200 matching lines shown; more exist');
  } finally {
    await rm(tree.base, { recursive: true, force: true });
  }
});
