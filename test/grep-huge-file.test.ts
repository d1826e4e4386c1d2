import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { canWatchReads } from '../src/tools/coding/search/huge-read-watch.js';
import * as rgGrep from '../src/tools/coding/search/rg-grep.js';
import { findRipgrep } from '../src/tools/coding/search/ripgrep-detect.js';
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
  // More files than the ordered pass looks at before it leaves a rare word to the parallel search.
  const filler = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`filler/f${i}.txt`, 'nothing here\n']));
  tree = await makeSearchTree({ ...filler, 'logs/huge.log': huge, 'logs/huge-first.log': hugeFirst, 'src/small.ts': 'const rareNeedle = 1;\n', 'src/other.ts': 'nothing\n' });
});

afterAll(async () => {
  await rm(tree.base, { recursive: true, force: true });
});

async function grep(ripgrep: false | string, args: Record<string, unknown>): Promise<string> {
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

it.runIf(canWatchReads())('a parallel search that reads past 5 MB of a file is killed and run again with --max-filesize', async () => {
  const real = await findRipgrep('auto');
  if (!real) return;
  // Without --max-filesize this ripgrep reads 6 MB of the huge log and holds it open (as a slow disk would); with it, the real one runs.
  const fake = join(tree.base, 'huge-reading-rg.sh');
  const huge = join(tree.workspace, 'logs', 'huge.log');
  await writeFile(fake, `#!/bin/sh\ncase " $* " in *" --max-filesize "*|*" --version "*) exec ${real} "$@";; esac\nexec 3< ${huge}\nhead -c 6000000 <&3 >/dev/null\nexec sleep 600\n`);
  await chmod(fake, 0o755);
  const before = rgGrep.hugeFileReruns;
  const args = { pattern: 'rareNeedle' };
  expect(await grep(fake, args)).toBe(await grep(false, args));
  expect(rgGrep.hugeFileReruns).toBe(before + 1);
});
