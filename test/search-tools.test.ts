import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translatePattern } from '../src/tools/coding/search/grep-pattern.js';
import { comparePaths } from '../src/tools/coding/search/path-order.js';
import { findRipgrep } from '../src/tools/coding/search/ripgrep-detect.js';
import { createSearchTools, type SearchToolOptions } from '../src/tools/coding/search-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { makeSearchTree, type SearchTree } from './support/search-tree.js';

let tree: SearchTree;
let rgBinary: string | undefined;

beforeAll(async () => {
  tree = await makeSearchTree();
  rgBinary = await findRipgrep('auto');
});

afterAll(async () => {
  await rm(tree.base, { recursive: true, force: true });
});

type Engine = 'js' | 'rg';

async function call(engine: Engine, name: string, args: Record<string, unknown>, options: SearchToolOptions = {}, workspace = tree.workspace) {
  const registry = new ToolRegistry(createSearchTools({ ...options, ripgrep: engine === 'js' ? false : 'auto' }));
  return registry.invoke({ id: 'c1', name, arguments: JSON.stringify(args) }, { workspace });
}

async function output(engine: Engine, name: string, args: Record<string, unknown>, options: SearchToolOptions = {}): Promise<string> {
  const result = await call(engine, name, args, options);
  expect(result.isError, result.content).toBe(false);
  return result.content;
}

function paths(listing: string): string[] {
  return listing.split('\n').filter((line) => !line.startsWith('['));
}

describe('list_files', () => {
  it('lists files sorted and relative, honouring root and nested .gitignore, .ignore and .git/info/exclude', async () => {
    const files = paths(await output('js', 'list_files', {}));
    expect(files).toEqual([...files].sort(comparePaths));
    expect(files).toContain('src/a.ts');
    expect(files).toContain('.github/workflows/ci.yml');
    expect(files).toContain('keep.log');
    expect(files).toContain('src/sub/rootonly.txt');
    for (const ignored of ['app.log', 'build/out.js', 'rootonly.txt', 'src/x.tmp', 'src/generated/gen.ts', 'excluded.txt', 'dot-ignored.txt']) {
      expect(files, ignored).not.toContain(ignored);
    }
  });

  it('skips node_modules (at any depth), .git, symbolic links and secret files', async () => {
    const files = paths(await output('js', 'list_files', {}));
    expect(files.filter((f) => f.includes('node_modules') || f.startsWith('.git/') || f.startsWith('link-'))).toEqual([]);
    expect(files).not.toContain('.env');
    expect(files).not.toContain('config/id_rsa');
    expect(files).toContain('config/.env.example');
    const withSecrets = paths(await output('js', 'list_files', {}, { allowSecrets: true }));
    expect(withSecrets).toContain('.env');
    expect(withSecrets).toContain('config/id_rsa');
  });

  it('filters by a glob: a bare name matches at any depth, a path glob from the listed directory', async () => {
    expect(paths(await output('js', 'list_files', { pattern: '*.ts' }))).toEqual(['src/a.ts', 'src/b.ts', 'src/deep/nested/c.ts']);
    expect(paths(await output('js', 'list_files', { pattern: 'deep/**', path: 'src' }))).toEqual(['src/deep/nested/c.ts']);
  });

  it('lists an explicitly named directory even though .gitignore excludes it', async () => {
    expect(paths(await output('js', 'list_files', { path: 'build' }))).toEqual(['build/out.js']);
  });

  it('caps the listing and says how many files there were', async () => {
    const listing = await output('js', 'list_files', {}, { maxListedFiles: 3 });
    const lines = listing.split('\n');
    expect(lines).toHaveLength(4);
    const total = paths(await output('js', 'list_files', {})).length;
    expect(lines[3]).toBe(`[3 of ${total} files shown; ${total - 3} more omitted. Narrow the pattern or path.]`);
  });

  it('refuses paths outside the workspace, files and bad globs with a reason', async () => {
    const outside = await call('js', 'list_files', { path: '../outside' });
    expect(outside.isError).toBe(true);
    expect(outside.content).toContain('outside the workspace');
    const symlinked = await call('js', 'list_files', { path: 'link-out' });
    expect(symlinked.content).toContain('outside the workspace');
    const file = await call('js', 'list_files', { path: 'src/a.ts' });
    expect(file.content).toContain('is a file, not a directory');
    expect((await output('js', 'list_files', { pattern: '*.nothing' }))).toBe('No files match "*.nothing" in the workspace.');
  });
});

describe('grep', () => {
  it('prints path:line:column: text, sorted by path then line, with 1-based character columns', async () => {
    const text = await output('js', 'grep', { pattern: 'needle', path: 'src' });
    expect(text).toBe(
      [
        'src/a.ts:3:14: export const needle = 1;',
        'src/a.ts:7:1: needle again',
        'src/b.ts:2:11:   return "needle needle";',
        'src/deep/nested/c.ts:1:2: \tneedle\t',
        'src/deep/nested/c.ts:2:3:   needle  ',
        'src/sub/rootonly.txt:1:1: needle not anchored here',
      ].join('\n'),
    );
    const utf = await output('js', 'grep', { pattern: 'needle', path: 'utf.txt' });
    expect(utf).toBe(['utf.txt:1:6: café needle 😀 needle', 'utf.txt:2:7: ÉCOLE needle', 'utf.txt:3:7: 数字１２３ needle'].join('\n'));
  });

  it('skips ignored, binary, oversized, symlinked and secret files', async () => {
    const files = new Set((await output('js', 'grep', { pattern: 'needle' })).split('\n').map((line) => line.split(':')[0]));
    for (const skipped of ['app.log', 'build/out.js', 'bin.dat', 'late-binary.dat', 'utf16.txt', '.env', 'config/id_rsa', 'link-file.txt', 'link-out/stolen.txt', 'node_modules/pkg/index.js', '.git/HEAD']) {
      expect(files.has(skipped), skipped).toBe(false);
    }
    expect(files.has('keep.log')).toBe(true);
    expect(await output('js', 'grep', { pattern: 'TOKEN', path: '.env' }, { allowSecrets: true })).toBe('.env:1:1: TOKEN=needle-secret');
  });

  it('shows context lines as path-line- text and separates groups with --', async () => {
    const text = await output('js', 'grep', { pattern: 'needle', path: 'src/a.ts', context: 1 });
    expect(text).toBe(
      ['src/a.ts-2- line two', 'src/a.ts:3:14: export const needle = 1;', 'src/a.ts-4- line four', '--', 'src/a.ts-6- line six', 'src/a.ts:7:1: needle again', 'src/a.ts-8- line eight'].join('\n'),
    );
  });

  it('matches case-insensitively with ignore_case and filters files with a glob', async () => {
    expect(await output('js', 'grep', { pattern: 'NEEDLE,', path: 'README.md', ignore_case: true })).toBe('README.md:4:9: Another Needle, capitalised.');
    expect(await output('js', 'grep', { pattern: 'NEEDLE', path: 'README.md' })).toBe('No matches for "NEEDLE" in README.md.');
    // Unicode case folding: k matches the Kelvin sign and s the long s, also past the fast prefilter.
    expect(await output('js', 'grep', { pattern: 'KELVIN SIGN AND THE STRANGE', ignore_case: true })).toBe('folding.txt:1:5: the \u212aelvin sign and the \u017ftrange long s');
    const text = await output('js', 'grep', { pattern: 'needle', glob: '*.ts' });
    expect(new Set(text.split('\n').map((line) => line.split(':')[0]))).toEqual(new Set(['src/a.ts', 'src/b.ts', 'src/deep/nested/c.ts']));
  });

  it('caps the matches and says more exist, without reading on to count them', async () => {
    const text = await output('js', 'grep', { pattern: 'needle', max_results: 2 });
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('[2 matching lines shown; more exist (not counted: the search stops once more than max_results are found). Narrow the pattern, path or glob, or raise max_results.]');
  });

  it('a capped result is exactly the head of the uncapped one, in both engines', async () => {
    for (const engine of ['js', 'rg'] as const) {
      const full = (await output(engine, 'grep', { pattern: 'e', max_results: 1000 })).split('\n');
      expect(full.some((line) => line.startsWith('['))).toBe(false);
      for (const cap of [1, 2, 3, 7, 25]) {
        const lines = (await output(engine, 'grep', { pattern: 'e', max_results: cap })).split('\n');
        expect(lines.slice(0, -1), `${engine} ${cap}`).toEqual(full.slice(0, cap));
        // The search stops once more than `cap` matches are known: the note says more exist, without a total.
        expect(lines.at(-1)).toContain(`[${cap} matching lines shown; more exist (not counted`);
      }
    }
  });

  it('keeps the output under its character budget and says so', async () => {
    const result = await output('js', 'grep', { pattern: 'a', path: 'long.txt', max_results: 1 });
    expect(result.length).toBeLessThan(500);
    expect(result).toContain('… [line of 5006 chars]');
    const huge = await makeSearchTree(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, `${'x'.repeat(200)} needle\n`])));
    try {
      const text = (await call('js', 'grep', { pattern: 'needle', path: 'many', max_results: 1000 }, {}, huge.workspace)).content;
      expect(text.length).toBeLessThanOrEqual(24_000 + 300);
      expect(text).toMatch(/ of 400 matching lines shown \(in 400 files\); \d+ more omitted because the output limit was reached\. Narrow the pattern, path or glob\.\]$/);
    } finally {
      await rm(huge.base, { recursive: true, force: true });
    }
  });

  it('rejects invalid and engine-specific regex syntax with a clear error', async () => {
    const cases: Array<[string, string]> = [
      ['(unclosed', 'never closed'],
      ['(?<=a)b', 'lookahead and lookbehind'],
      ['(a)\\1', 'backreferences'],
      ['(?i)needle', 'inline flags'],
      ['[[:alpha:]]', 'POSIX classes'],
      ['a\\nb', '\\n can never match'],
      ['*a', 'nothing to repeat'],
      ['a{2,1}', 'maximum below its minimum'],
      ['\\p{L}', 'not supported'],
      ['\\u{fffd}', 'U+FFFD cannot be searched for'],
    ];
    for (const [pattern, reason] of cases) {
      const result = await call('js', 'grep', { pattern });
      expect(result.isError, pattern).toBe(true);
      expect(result.content, pattern).toContain(`Invalid pattern ${JSON.stringify(pattern)}`);
      expect(result.content, pattern).toContain(reason);
    }
  });

  it('translates the constructs the two engines read differently to one meaning', () => {
    const translated = translatePattern('\\w+\\.\\d[^\\s-]\\b.');
    expect(translated).toEqual({
      ok: true,
      js: '[0-9A-Za-z_]+\\x2e[0-9][^\\x09\\x0b-\\x0d\\x20\\x2d\\u{fffd}]\\b[^\\n\\u{fffd}]',
      rust: '[0-9A-Za-z_]+\\x{2e}[0-9][^\\x{9}\\x{b}-\\x{d}\\x{20}\\x{2d}\\x{fffd}](?-u:\\b)[^\\n\\x{fffd}]',
      required: '.',
    });
    expect(translatePattern('ab?cde+f|x')).toMatchObject({ ok: true, required: undefined });
    expect(translatePattern('ab?cde+f')).toMatchObject({ ok: true, required: 'cde' });
  });
});

describe('abort', () => {
  it('stops the JavaScript engine mid-search', async () => {
    const big = await makeSearchTree(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`d${i % 30}/f${i}.txt`, 'haystack\n'.repeat(50)])));
    try {
      const grep = createSearchTools({ ripgrep: false })[1]!;
      const controller = new AbortController();
      const pending = grep.execute({ pattern: 'needle' }, { signal: controller.signal, workspace: big.workspace });
      setImmediate(() => controller.abort(new Error('stop')));
      await expect(pending).rejects.toThrow('stop');
    } finally {
      await rm(big.base, { recursive: true, force: true });
    }
  });

  it('kills ripgrep when the search is aborted', async () => {
    const pidFile = join(tree.base, 'rg.pid');
    const fakeRg = join(tree.base, 'slow-rg.sh');
    await writeFile(fakeRg, `#!/bin/sh\nif [ "$1" = --version ]; then echo "ripgrep 13.0.0"; exit 0; fi\necho $$ > ${pidFile}\nexec sleep 600\n`);
    await chmod(fakeRg, 0o755);
    const grep = createSearchTools({ ripgrep: fakeRg })[1]!;
    const controller = new AbortController();
    const pending = grep.execute({ pattern: 'needle' }, { signal: controller.signal, workspace: tree.workspace });
    const pid = Number(await waitFor(() => readFile(pidFile, 'utf8').then((text) => (text.trim() ? text : undefined))));
    controller.abort(new Error('stop'));
    // Without the kill this would wait out the sleep, past the test's time limit.
    await expect(pending).rejects.toThrow('stop');
    await waitFor(async () => (isAlive(pid) ? undefined : true));
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls a condition (a file appearing, a process exiting) until it yields a value. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PARITY_GREP: Array<Record<string, unknown>> = [
  { pattern: 'needle' },
  { pattern: 'needle', context: 2 },
  { pattern: 'needle', context: 10, max_results: 7 },
  { pattern: 'needle', ignore_case: true },
  { pattern: 'Needle' },
  { pattern: 'NEEDLE', ignore_case: true, glob: '*.{ts,md}' },
  { pattern: 'needle', glob: 'src/**/*.ts' },
  { pattern: 'needle', glob: '*.txt', path: 'src' },
  { pattern: 'needle', path: 'src' },
  { pattern: 'needle', path: 'build' },
  { pattern: 'needle', max_results: 3 },
  { pattern: '^needle$' },
  { pattern: '^needle' },
  { pattern: 'needle$' },
  { pattern: '\\bneedle\\b' },
  { pattern: '\\Bedl\\B' },
  { pattern: 'ne+dle|hay(stack)?' },
  { pattern: '(?:ne){1}e?dle', context: 1 },
  { pattern: '(?<word>needle) again' },
  { pattern: '\\w+', max_results: 20 },
  { pattern: '\\d+' },
  { pattern: '\\s+$' },
  { pattern: '\\S+\\s\\S+$', max_results: 40 },
  { pattern: '[^a-z ]needle' },
  { pattern: '[A-Z]{2,}' },
  { pattern: '.', max_results: 5 },
  { pattern: 'x*', max_results: 30 },
  { pattern: '^', max_results: 30 },
  { pattern: '$', max_results: 30 },
  { pattern: 'é|😀' },
  { pattern: '\\u{1F600}' },
  { pattern: '\\x6eeedle\\u0020' },
  { pattern: 'école', ignore_case: true },
  { pattern: 'É', ignore_case: true },
  { pattern: 'KELVIN', ignore_case: true },
  { pattern: 'strange long', ignore_case: true },
  { pattern: 'e[\\u{f000}-\\u{ffff}]' },
  { pattern: '１２３' },
  { pattern: 'a\\.b a\\*b \\(x\\) \\[y\\] \\{z\\} \\$1 \\^c a\\|b a-b a&&b ~t #h' },
  { pattern: '[-&~#]+' },
  { pattern: '[a-c]\\.[b]' },
  { pattern: '\\t' },
  { pattern: '\\r' },
  { pattern: '.{3}needle.{0,4}$' },
  { pattern: 'ok$' },
  { pattern: 'needle with bom' },
  { pattern: 'a{1000}needle' },
  { pattern: 'bbb', max_results: 1 },
  { pattern: 'nothing matches this' },
];

const PARITY_LIST: Array<Record<string, unknown>> = [
  {}, { pattern: '*.ts' }, { pattern: '*.{yml,md}' }, { path: 'src' }, { pattern: 'src/**' }, { pattern: '**/*.txt', path: 'src' }, { path: 'build' },
  { path: 'config' }, { pattern: '.env*' }, { pattern: '*id_*' },
];

describe('parity: ripgrep and the JavaScript engine print the same bytes', () => {
  it('has ripgrep installed (.ci/run installs it; locally: apt-get install -y ripgrep)', () => {
    expect(rgBinary, 'rg was not found on PATH').toBeTruthy();
  });

  it('VIBE_AGENT_RG=0 forces the JavaScript engine and VIBE_AGENT_RG=path picks a binary', async () => {
    const saved = process.env.VIBE_AGENT_RG;
    try {
      process.env.VIBE_AGENT_RG = '0';
      expect(await findRipgrep('auto')).toBeUndefined();
      process.env.VIBE_AGENT_RG = rgBinary;
      expect(await findRipgrep('auto')).toBe(rgBinary);
      process.env.VIBE_AGENT_RG = join(tree.base, 'no-such-rg');
      expect(await findRipgrep('auto')).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.VIBE_AGENT_RG;
      else process.env.VIBE_AGENT_RG = saved;
    }
    expect(await findRipgrep(false)).toBeUndefined();
  });

  for (const args of PARITY_GREP) {
    it(`grep ${JSON.stringify(args)}`, async () => {
      const [js, rg] = [await output('js', 'grep', args), await output('rg', 'grep', args)];
      expect(rg).toBe(js);
    });
  }

  for (const args of PARITY_LIST) {
    it(`list_files ${JSON.stringify(args)}`, async () => {
      const [js, rg] = [await output('js', 'list_files', args), await output('rg', 'list_files', args)];
      expect(rg).toBe(js);
    });
  }

  it('list_files with secrets allowed, and capped', async () => {
    for (const options of [{ allowSecrets: true }, { maxListedFiles: 3 }, { maxListedFiles: 1, allowSecrets: true }]) {
      expect(await output('rg', 'list_files', {}, options)).toBe(await output('js', 'list_files', {}, options));
    }
  });

  it('grep with secrets allowed', async () => {
    const options = { allowSecrets: true };
    expect(await output('rg', 'grep', { pattern: 'needle' }, options)).toBe(await output('js', 'grep', { pattern: 'needle' }, options));
  });

  it('skips files over 5 MB (5 MiB exactly is still searched), like rg --max-filesize', async () => {
    const limit = 5 * 1024 * 1024;
    const sized = (bytes: number) => Buffer.concat([Buffer.from('needle\n'), Buffer.alloc(bytes - 7, 'x')]);
    const big = await makeSearchTree({ 'big/exact.txt': sized(limit), 'big/over.txt': sized(limit + 1) });
    try {
      const js = await call('js', 'grep', { pattern: 'needle', path: 'big' }, {}, big.workspace);
      expect(js.content).toBe('big/exact.txt:1:1: needle');
      expect((await call('rg', 'grep', { pattern: 'needle', path: 'big' }, {}, big.workspace)).content).toBe(js.content);
    } finally {
      await rm(big.base, { recursive: true, force: true });
    }
  });

  it('an extra root (--add-dir) is searched with absolute paths', async () => {
    for (const engine of ['js', 'rg'] as const) {
      const result = await call(engine, 'grep', { pattern: 'needle', path: tree.outside }, { extraRoots: [tree.outside] });
      expect(result.content, engine).toBe(`${tree.outside}/stolen.txt:1:1: needle outside the workspace`);
    }
  });

  it('a linked git worktree uses the shared .git/info/exclude', async () => {
    const linked = await makeSearchTree({ 'main/.git/info/exclude': 'shared-excluded.txt\n', 'main/.git/worktrees/w/commondir': '../..\n', 'w/shared-excluded.txt': 'needle\n', 'w/kept.txt': 'needle\n' });
    try {
      const workspace = join(linked.workspace, 'w');
      await writeFile(join(workspace, '.git'), `gitdir: ${join(linked.workspace, 'main', '.git', 'worktrees', 'w')}\n`);
      const js = await call('js', 'list_files', {}, {}, workspace);
      expect(js.content).toBe('kept.txt');
      expect((await call('rg', 'list_files', {}, {}, workspace)).content).toBe(js.content);
    } finally {
      await rm(linked.base, { recursive: true, force: true });
    }
  });

  it('a workspace below a repository uses the repository root .gitignore, but not above it', async () => {
    const nested = await makeSearchTree({ 'pkg/.gitignore': 'local.txt\n', 'pkg/local.txt': 'needle\n', 'pkg/kept.txt': 'needle\n', 'pkg/app.log': 'needle\n' });
    try {
      const workspace = join(nested.workspace, 'pkg');
      const js = await call('js', 'grep', { pattern: 'needle' }, {}, workspace);
      const rg = await call('rg', 'grep', { pattern: 'needle' }, {}, workspace);
      expect(js.content).toBe('kept.txt:1:1: needle');
      expect(rg.content).toBe(js.content);
    } finally {
      await rm(nested.base, { recursive: true, force: true });
    }
  });
});

describe('ripgrep with ignore files it must not open, and its detection', () => {
  it('a FIFO .gitignore or one linked to /dev/zero below the root: both tools give the JavaScript walker\'s answer, with its warning', async () => {
    const hostile = await makeSearchTree({ 'a/kept.txt': 'needle\n', 'b/kept.txt': 'needle\n' });
    try {
      const { execFileSync } = await import('node:child_process');
      const { symlinkSync } = await import('node:fs');
      execFileSync('mkfifo', [join(hostile.workspace, 'a', '.gitignore')]);
      symlinkSync('/dev/zero', join(hostile.workspace, 'b', '.ignore'));
      for (const [name, args] of [['list_files', {}], ['grep', { pattern: 'needle' }]] as const) {
        const js = await call('js', name, args, {}, hostile.workspace);
        const rg = await call('rg', name, args, {}, hostile.workspace);
        expect(js.content, name).toContain('[Skipped');
        expect(rg.content, name).toBe(js.content);
      }
    } finally {
      await rm(hostile.base, { recursive: true, force: true });
    }
  });

  it('decides "missing" only from an answer, never from waiting: a slow `rg --version` is waited for, and a caller may stop waiting', async () => {
    const slow = await makeSearchTree({});
    const saved = process.env.VIBE_AGENT_RG;
    try {
      const started = join(slow.base, 'started');
      const release = join(slow.base, 'release');
      const fake = join(slow.base, 'slow-rg');
      // Answers only once the test says so: a machine so loaded that the version check takes as long as it takes.
      await writeFile(fake, `#!/bin/sh\ntouch '${started}'\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\nexec '${rgBinary}' "$@"\n`);
      await chmod(fake, 0o755);
      process.env.VIBE_AGENT_RG = fake;
      const stopped = new AbortController();
      const first = findRipgrep('auto', stopped.signal);
      const { existsSync } = await import('node:fs');
      while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 20));
      stopped.abort(new Error('the caller stopped'));
      await expect(first).rejects.toThrow('the caller stopped');
      const second = findRipgrep('auto');
      await writeFile(release, '');
      expect(await second).toBe(fake);
    } finally {
      if (saved === undefined) delete process.env.VIBE_AGENT_RG;
      else process.env.VIBE_AGENT_RG = saved;
      await rm(slow.base, { recursive: true, force: true });
    }
  });
});
