// grep and list_files on a generated 50,000-file tree: raw `rg` against our grep through rg and
// through the JavaScript engine, and `rg --files` against list_files (both engines).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSearchTools } from '../dist/index.js';

const RUNS = 5;
const WORDS = ['value', 'result', 'handler', 'config', 'request', 'index', 'buffer', 'stream', 'token', 'render', 'cache', 'node', 'error', 'parse', 'format'];

/** A deterministic pseudo-random source, so every run searches the same tree. */
function random(seed) {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function sourceFile(next, bytes, index) {
  const pick = () => WORDS[Math.floor(next() * WORDS.length)];
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const roll = next();
    const line =
      roll < 0.3 ? `export function ${pick()}${Math.floor(next() * 1000)}(${pick()}, ${pick()}) {`
      : roll < 0.5 ? `  const ${pick()} = ${pick()}.${pick()}(${Math.floor(next() * 100)});`
      : roll < 0.6 ? `  // TODO(${pick()}): handle the ${pick()} case`
      : roll < 0.7 ? `  if (!${pick()}) throw new Error('${pick()} ${pick()} failed');`
      : roll < 0.8 ? '}'
      : `  return ${pick()} + ${pick()};`;
    lines.push(line);
    size += line.length + 1;
  }
  if (index % 5000 === 17) lines.splice(lines.length >> 1, 0, '  const zebraQuokka = 1; // the rare needle');
  return lines.join('\n') + '\n';
}

export async function makeTree(root) {
  const next = random(42);
  const files = [];
  // 40,000 tracked files in nested directories, 5,000 in an ignored build output, 5,000 in node_modules.
  for (let i = 0; i < 40_000; i++) files.push(`src/pkg${i % 40}/mod${Math.floor(i / 40) % 25}/${i % 3 === 0 ? 'lib/' : ''}file${i}.${i % 4 === 0 ? 'js' : 'ts'}`);
  for (let i = 0; i < 5_000; i++) files.push(`dist/chunk${i % 50}/out${i}.js`);
  for (let i = 0; i < 5_000; i++) files.push(`node_modules/dep${i % 100}/lib/f${i}.js`);
  await mkdir(join(root, '.git'), { recursive: true });
  await writeFile(join(root, '.gitignore'), 'dist/\nnode_modules/\n*.log\n');
  for (const dir of new Set(files.map((f) => f.slice(0, f.lastIndexOf('/'))))) await mkdir(join(root, dir), { recursive: true });
  await writeFile(join(root, 'src', 'pkg1', '.gitignore'), 'generated/\n*.tmp\n');
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(files.slice(i, i + 256).map((file, j) => writeFile(join(root, file), sourceFile(next, 1024 + Math.floor(next() * 3072), i + j))));
  }
  return files.length;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Raw ripgrep with the same walk rules, its output drained through a pipe. */
function rawRg(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', ['--no-config', '--hidden', '--no-require-git', ...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (d) => (bytes += d.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

async function runTool(tool, args, workspace) {
  const out = await tool.execute(args, { signal: new AbortController().signal, workspace });
  const text = typeof out === 'string' ? out : out.output;
  if (typeof out !== 'string' && out.isError) throw new Error(text);
  return text;
}

export default async function searchBench() {
  const root = await mkdtemp(join(tmpdir(), 'vibe-search-bench-'));
  try {
    const made = performance.now();
    const count = await makeTree(root);
    console.log(`\nSearch: ${count} files generated in ${((performance.now() - made) / 1000).toFixed(1)} s (40,000 searched; dist/ and node_modules/ skipped); median of ${RUNS} after a warm-up`);
    const [listRg, grepRg] = createSearchTools({ ripgrep: 'auto' });
    const [listJs, grepJs] = createSearchTools({ ripgrep: false });
    const cases = [
      { name: 'rare literal', args: { pattern: 'zebraQuokka' }, rg: ['-n', '--column', 'zebraQuokka'] },
      { name: 'regex, ~10% of lines', args: { pattern: 'TODO\\(\\w+\\)' }, rg: ['-n', '--column', 'TODO\\(\\w+\\)'] },
      { name: 'case-insensitive', args: { pattern: 'ERROR\\(.(parse|token)', ignore_case: true }, rg: ['-n', '--column', '-i', 'ERROR\\(.(parse|token)'] },
      { name: 'common word (cap 200)', args: { pattern: 'function' }, rg: ['-n', '--column', 'function'] },
      { name: 'glob *.js, rare', args: { pattern: 'zebraQuokka', glob: '*.js' }, rg: ['-n', '--column', '-g', '*.js', 'zebraQuokka'] },
    ];
    const rows = [];
    for (const c of cases) {
      const raw = await timed(() => rawRg(c.rg, root));
      const withRg = await timed(() => runTool(grepRg, c.args, root));
      const js = await timed(() => runTool(grepJs, c.args, root));
      if ((await runTool(grepRg, c.args, root)) !== (await runTool(grepJs, c.args, root))) throw new Error(`engines disagree on ${c.name}`);
      rows.push({ case: c.name, 'rg ms': raw.toFixed(0), 'ours+rg ms': withRg.toFixed(0), 'ours+rg / rg': (withRg / raw).toFixed(2), 'target ≤1.2': withRg / raw <= 1.2 ? 'PASS' : 'MISS', 'ours JS ms': js.toFixed(0), 'JS / rg': (js / raw).toFixed(2), 'target ≤3': js / raw <= 3 ? 'PASS' : 'MISS' });
    }
    const rawFiles = await timed(() => rawRg(['--files'], root));
    const listWithRg = await timed(() => runTool(listRg, {}, root));
    const listWithJs = await timed(() => runTool(listJs, {}, root));
    rows.push({ case: 'list all files (rg --files)', 'rg ms': rawFiles.toFixed(0), 'ours+rg ms': listWithRg.toFixed(0), 'ours+rg / rg': (listWithRg / rawFiles).toFixed(2), 'target ≤1.2': '', 'ours JS ms': listWithJs.toFixed(0), 'JS / rg': (listWithJs / rawFiles).toFixed(2), 'target ≤3': '' });
    console.table(rows);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
