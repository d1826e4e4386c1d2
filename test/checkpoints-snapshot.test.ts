import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShadowGit, nulList } from '../src/checkpoints/shadow-git.js';
import { takeSnapshot } from '../src/checkpoints/snapshot.js';

/** The real shadow git, recording the subcommand of every git process it starts. */
class CountingGit extends ShadowGit {
  calls: string[] = [];
  override run(args: string[], input?: string) {
    this.calls.push(args[0]!);
    return super.run(args, input);
  }
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function workspace() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-snap-')));
  roots.push(root);
  const ws = join(root, 'ws');
  const write = (path: string, text: string | Buffer) => {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), text);
  };
  write('.gitignore', 'ignored/\n*.log\n');
  write('src/a.ts', 'export const a = 1;\n');
  write('src/deep/b.ts', 'export const b = 2;\n');
  write('ignored/c.txt', 'not covered\n');
  write('debug.log', 'not covered\n');
  write('big.bin', Buffer.alloc(2048, 1));
  const git = new CountingGit(join(root, 'data', 'git'), ws);
  const files = async (tree: string) => nulList(await git.must(['ls-tree', '-r', '-z', '--name-only', tree])).sort();
  const content = (tree: string, path: string) => git.must(['show', `${tree}:${path}`]);
  return { ws, write, git, files, content };
}

describe('checkpoint snapshots', () => {
  it('cover every file git would not ignore, leave out and report files over the limit', async () => {
    const { git, files } = workspace();
    const snapshot = await takeSnapshot(git, 1024);
    expect(snapshot.tooLarge).toEqual(['big.bin']);
    expect(await files(snapshot.tree)).toEqual(['.gitignore', 'src/a.ts', 'src/deep/b.ts']);
  });

  it('answer with one git process (ls-files) when nothing changed, and see every kind of change after', async () => {
    const { ws, write, git, files, content } = workspace();
    const first = await takeSnapshot(git, 1024);
    git.calls = [];
    const again = await takeSnapshot(git, 1024);
    expect(again.tree).toBe(first.tree);
    expect(git.calls).toEqual(['ls-files']);

    write('src/a.ts', 'export const a = 42;\n');
    unlinkSync(join(ws, 'src/deep/b.ts'));
    write('src/new.ts', 'export const fresh = true;\n');
    write('more.log', 'still ignored\n');
    git.calls = [];
    const changed = await takeSnapshot(git, 1024);
    expect(git.calls).toEqual(['ls-files', 'add', 'write-tree']);
    expect(await files(changed.tree)).toEqual(['.gitignore', 'src/a.ts', 'src/new.ts']);
    expect(await content(changed.tree, 'src/a.ts')).toBe('export const a = 42;\n');

    // A file that grows past the limit leaves the tree rather than keeping its old content.
    write('src/a.ts', Buffer.alloc(4096, 2));
    const grown = await takeSnapshot(git, 1024);
    expect(grown.tooLarge).toEqual(['big.bin', 'src/a.ts']);
    expect(await files(grown.tree)).toEqual(['.gitignore', 'src/new.ts']);
  });

  it('does not reuse the remembered tree once the index changed under it (a rewind writes the index)', async () => {
    const { ws, write, git, files, content } = workspace();
    const before = await takeSnapshot(git, 1024);
    write('src/a.ts', 'export const a = "agent";\n');
    write('src/created.ts', 'export {};\n');
    await takeSnapshot(git, 1024);
    write('src/a.ts', 'export const a = 1;\n');
    unlinkSync(join(ws, 'src/created.ts'));
    await git.must(['read-tree', before.tree]);
    const rewound = await takeSnapshot(git, 1024);
    expect(rewound.tree).toBe(before.tree);
    expect(await files(rewound.tree)).toEqual(['.gitignore', 'src/a.ts', 'src/deep/b.ts']);
    expect(await content(rewound.tree, 'src/a.ts')).toBe('export const a = 1;\n');
  });
});
