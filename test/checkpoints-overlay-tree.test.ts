import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { overlayTree } from '../src/checkpoints/overlay-tree.js';
import { writeBlob, type Capture } from '../src/checkpoints/pre-image.js';
import { nulList, ShadowGit } from '../src/checkpoints/shadow-git.js';
import { takeSnapshot } from '../src/checkpoints/snapshot.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** The same overlay built the plain way: the whole base tree in an index, the entries replaced, write-tree. */
async function byIndex(git: ShadowGit, base: string, lines: string[]): Promise<string> {
  const indexFile = join(git.gitDir, 'reference-index');
  await git.must(['read-tree', base], undefined, { indexFile });
  if (lines.length) await git.must(['update-index', '-z', '--add', '--replace', '--index-info'], `${lines.join('\0')}\0`, { indexFile });
  const tree = (await git.must(['write-tree'], undefined, { indexFile })).trim();
  rmSync(indexFile, { force: true });
  return tree;
}

describe('overlayTree: only the folders on the captured paths are rebuilt', () => {
  it('gives the tree an index of the whole base would: files set, removed, folders made, emptied, replaced by files and the reverse', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-overlay-')));
    roots.push(root);
    const ws = join(root, 'ws');
    for (const dir of ['a/b/c', 'a/d', 'e', 'f/g', 'gone/only']) mkdirSync(join(ws, dir), { recursive: true });
    for (const file of ['a/b/c/1.txt', 'a/b/2.txt', 'a/d/3.txt', 'a/d-4.txt', 'a.txt', 'e/5', 'f/g/6', 'gone/only/7', 'top']) writeFileSync(join(ws, file), `${file}\n`);
    // A name that is not UTF-8 in a folder that is rebuilt: kept byte for byte.
    writeFileSync(Buffer.concat([Buffer.from(`${ws}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'not utf-8 by name\n');
    writeFileSync(join(ws, '.gitignore'), 'ignored/\n');
    const git = new ShadowGit(join(root, 'store'), ws);
    const base = await takeSnapshot(git);
    const blob = async (text: string): Promise<Capture> => ({ kind: 'blob', mode: '100644', sha: await writeBlob(git, Buffer.from(text)) });
    const captures = new Map<string, Capture>([
      ['a/b/c/1.txt', await blob('changed\n')],
      ['a/b/new/deep/8.txt', await blob('new deep\n')],
      ['a/d/3.txt', { kind: 'absent' }],
      ['gone/only/7', { kind: 'absent' }],
      ['e', await blob('a file where a folder was\n')],
      ['top/9', await blob('a folder where a file was\n')],
      ['ignored/x', await blob('ignored: not added\n')],
      ['never-there', { kind: 'absent' }],
      ['f/g/6', { kind: 'tooLarge' }],
      ['a.txt', { kind: 'skip' }],
    ]);
    const built = await overlayTree(git, base, captures);
    const reference = await byIndex(git, base.tree, [
      `100644 ${(captures.get('a/b/c/1.txt') as { sha: string }).sha}\ta/b/c/1.txt`,
      `100644 ${(captures.get('a/b/new/deep/8.txt') as { sha: string }).sha}\ta/b/new/deep/8.txt`,
      `0 ${'0'.repeat(40)}\ta/d/3.txt`,
      `0 ${'0'.repeat(40)}\tgone/only/7`,
      `100644 ${(captures.get('e') as { sha: string }).sha}\te`,
      `100644 ${(captures.get('top/9') as { sha: string }).sha}\ttop/9`,
      `0 ${'0'.repeat(40)}\tf/g/6`,
    ]);
    expect(built.tree).toBe(reference);
    expect(built.tooLarge).toEqual(['f/g/6']);
    const files = nulList(await git.must(['ls-tree', '-r', '-z', '--name-only', built.tree]));
    expect(files).toContain('a/d-4.txt');
    expect(files.some((path) => path.startsWith('gone'))).toBe(false);
    expect(await git.must(['fsck', '--no-dangling', '--connectivity-only', built.tree])).toBe('');
  });
});
