import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearchTools } from '../src/tools/coding/search-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { makeSearchTree, type SearchTree } from './support/search-tree.js';

// ripgrep's parallel search runs without --max-filesize (it would stat every file) where its reads
// can be watched: a huge text file is then read, or the search killed and run again with the flag.
// Either way the output is the JavaScript engine's, which skips files over 5 MB.
let tree: SearchTree;

beforeAll(async () => {
  const line = 'a line of plain text without the word\n';
  const huge = Buffer.from(`${line.repeat(Math.ceil((24 * 1024 * 1024) / line.length))}rareNeedle at the end\n`);
  const hugeFirst = Buffer.from(`rareNeedle at the start\n${line.repeat(Math.ceil((6 * 1024 * 1024) / line.length))}`);
  tree = await makeSearchTree({ 'logs/huge.log': huge, 'logs/huge-first.log': hugeFirst, 'src/small.ts': 'const rareNeedle = 1;\n', 'src/other.ts': 'nothing\n' });
});

afterAll(async () => {
  await rm(tree.base, { recursive: true, force: true });
});

async function grep(ripgrep: false | 'auto', args: Record<string, unknown>): Promise<string> {
  const registry = new ToolRegistry(createSearchTools({ ripgrep }));
  const result = await registry.invoke({ id: 'c1', name: 'grep', arguments: JSON.stringify(args) }, { workspace: tree.workspace });
  expect(result.isError, result.content).toBe(false);
  return result.content;
}

it('a rare word beside huge text files: only the small file is reported, by both engines', async () => {
  for (const args of [{ pattern: 'rareNeedle' }, { pattern: 'rareNeedle', path: 'logs' }, { pattern: 'rare[N]eedle', max_results: 1 }]) {
    const js = await grep(false, args);
    expect(await grep('auto', args), JSON.stringify(args)).toBe(js);
  }
  expect(await grep('auto', { pattern: 'rareNeedle' })).toBe('src/small.ts:1:7: const rareNeedle = 1;');
});
