import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as guard from '../src/tools/coding/search/ignore-file-guard.js';
import { makeSearchTree, type SearchTree } from './support/search-tree.js';

// As if the check ran long after the tree was written, so no folder counts as just changed.
const later = () => Date.now() + 60_000;
const never = new AbortController().signal;
let tree: SearchTree | undefined;

afterEach(() => {
  if (tree) rmSync(tree.base, { recursive: true, force: true });
  tree = undefined;
});

/** Waits until a change made now gets another ctime than `path` has: the file system's clock has ticked past it. */
async function pastCtimeOf(path: string, probe: string): Promise<void> {
  const before = lstatSync(path, { bigint: true }).ctimeNs;
  for (;;) {
    writeFileSync(probe, '');
    if (statSync(probe, { bigint: true }).ctimeNs > before) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('ripgrepMayWalk remembers a clean tree', () => {
  it('an unchanged tree is not walked again; a changed folder is, and a FIFO or a /dev/zero link put there is seen', async () => {
    tree = await makeSearchTree({ 'a/kept.txt': 'x\n', 'b/deep/kept.txt': 'x\n' });
    const root = tree.workspace;
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(true);
    const walks = guard.fullChecks;
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(true);
    expect(guard.fullChecks).toBe(walks);

    await pastCtimeOf(join(root, 'a'), join(tree.base, 'probe'));
    execFileSync('mkfifo', [join(root, 'a', '.gitignore')]);
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(false);
    expect(guard.fullChecks).toBe(walks + 1);
    rmSync(join(root, 'a', '.gitignore'));
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(true);

    await pastCtimeOf(join(root, 'b', 'deep'), join(tree.base, 'probe'));
    symlinkSync('/dev/zero', join(root, 'b', 'deep', '.ignore'));
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(false);
  });

  it('a new folder below a known one and an ignore file grown past the limit are each seen', async () => {
    tree = await makeSearchTree({ 'a/kept.txt': 'x\n', 'a/.gitignore': '*.tmp\n' });
    const root = tree.workspace;
    const probe = join(tree.base, 'probe');
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(true);

    await pastCtimeOf(join(root, 'a', '.gitignore'), probe);
    writeFileSync(join(root, 'a', '.gitignore'), Buffer.alloc(4 * 1024 * 1024 + 1, '#'));
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(false);
    writeFileSync(join(root, 'a', '.gitignore'), '*.tmp\n');
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(true);

    await pastCtimeOf(join(root, 'a'), probe);
    mkdirSync(join(root, 'a', 'new', 'deeper'), { recursive: true });
    execFileSync('mkfifo', [join(root, 'a', 'new', 'deeper', '.rgignore')]);
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(false);
  });

  it('a folder changed just before the check is not trusted next time', async () => {
    tree = await makeSearchTree({ 'a/kept.txt': 'x\n' });
    const root = tree.workspace;
    // The tree was written just now: the check may have read a folder before its last change.
    expect(await guard.ripgrepMayWalk(root, never)).toBe(true);
    const walks = guard.fullChecks;
    expect(await guard.ripgrepMayWalk(root, never, later)).toBe(true);
    expect(guard.fullChecks).toBe(walks + 1);
  });
});
