import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Files of the shared search fixture, relative to the workspace. Buffers are written as bytes. */
export const TREE: Record<string, string | Buffer> = {
  '.git/HEAD': 'ref: refs/heads/main needle\n',
  '.git/info/exclude': '# local excludes\nexcluded.txt\n',
  '.gitignore': '*.log\n!keep.log\nbuild/\n/rootonly.txt\n',
  '.ignore': 'dot-ignored.txt\n',
  'excluded.txt': 'needle (excluded by .git/info/exclude)\n',
  'dot-ignored.txt': 'needle (excluded by .ignore)\n',
  'app.log': 'needle in a log\n',
  'keep.log': 'needle in a kept log\n',
  'rootonly.txt': 'needle anchored at the root\n',
  'build/out.js': 'const needle = 1;\n',
  'README.md': '# Title\n\nThe needle is here.\nAnother Needle, capitalised.\nnothing\n',
  'src/.gitignore': 'generated/\n*.tmp\n',
  'src/a.ts': 'line one\nline two\nexport const needle = 1;\nline four\nline five\nline six\nneedle again\nline eight\n',
  'src/b.ts': 'function haystack() {\n  return "needle needle";\n}\n',
  'src/x.tmp': 'needle in tmp\n',
  'src/generated/gen.ts': 'export const needle = "generated";\n',
  'src/sub/rootonly.txt': 'needle not anchored here\n',
  'src/deep/nested/c.ts': '\tneedle\t\n  needle  \n',
  'node_modules/pkg/index.js': 'module.exports = "needle";\n',
  'lib/node_modules/dep/y.js': 'needle in nested node_modules\n',
  'lib/z.js': 'const x = 42; // needle 7\n',
  '.github/workflows/ci.yml': 'name: needle ci\n',
  '.env': 'TOKEN=needle-secret\n',
  'config/id_rsa': 'needle private key\n',
  'config/.env.example': 'TOKEN=needle-example\n',
  'bin.dat': Buffer.from('needle\0binary\n'),
  'late-binary.dat': Buffer.concat([Buffer.from('needle first\n'), Buffer.alloc(100_000, 'x'), Buffer.from('\n\0\n')]),
  'utf.txt': 'café needle 😀 needle\nÉCOLE needle\n数字１２３ needle\n',
  'crlf.txt': 'needle\r\nfoo needle\r\n',
  'bom.txt': '\ufeffneedle with bom\n',
  'long.txt': `${'a'.repeat(3000)}needle${'b'.repeat(2000)}\n`,
  'no-newline.txt': 'last needle',
  'clock.txt': 'first line\n12:30 needle meeting',
  'empty.txt': '',
  'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('needle\n', 'utf16le')]),
  'invalid-utf8.txt': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xff, 0x20, 0x6f, 0x6b, 0x0a]),
  'folding.txt': 'the \u212aelvin sign and the \u017ftrange long s\n',
  'punct.txt': 'a.b a*b (x) [y] {z} $1 ^c a|b a-b a&&b ~t #h\n',
  'space words.txt': 'needle in a file name with a space\n',
};

export interface SearchTree {
  base: string;
  workspace: string;
  outside: string;
}

/** Writes the fixture plus symbolic links that point out of the workspace and inside it. */
export async function makeSearchTree(extra: Record<string, string | Buffer> = {}): Promise<SearchTree> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'vibe-search-')));
  const workspace = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'stolen.txt'), 'needle outside the workspace\n');
  const entries = Object.entries({ ...TREE, ...extra });
  for (const dir of new Set(entries.map(([path]) => dirname(join(workspace, path))))) await mkdir(dir, { recursive: true });
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(entries.slice(i, i + 64).map(([path, content]) => writeFile(join(workspace, path), content)));
  }
  await symlink(outside, join(workspace, 'link-out'));
  await symlink(join(outside, 'stolen.txt'), join(workspace, 'link-file.txt'));
  await symlink(join(workspace, 'src'), join(workspace, 'link-in'));
  return { base, workspace, outside };
}
