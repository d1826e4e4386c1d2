// grep and list_files on a generated 50,000-file tree: raw `rg` against our grep through rg and
// through the JavaScript engine, and `rg --files` against list_files (both engines).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSearchTools } from '../dist/index.js';
import { walkFlags } from '../dist/tools/coding/search/rg-grep.js';
import { MAX_SEARCH_FILE_BYTES } from '../dist/tools/coding/search/search-target.js';

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

/**
 * Runs the contenders in turn, RUNS times after one warm-up round, so that load from other
 * processes on the shared machine falls on all of them alike. Returns each one's median and the
 * median of its per-round ratio to the first contender.
 */
async function race(contenders) {
  for (const run of contenders) await run();
  const times = contenders.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const started = performance.now();
      await contenders[i]();
      times[i].push(performance.now() - started);
    }
  }
  return times.map((t, i) => ({ ms: median(t), ratio: median(t.map((v, round) => v / times[0][round])), i }));
}

/** Raw ripgrep given the same walk and file rules as our tools, printing its plain format into a pipe. */
function rawRg(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', [...walkFlags(), ...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
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

function row(name, raw, withRg, js, targets) {
  return {
    case: name,
    'rg ms': raw.ms.toFixed(0),
    'ours+rg ms': withRg.ms.toFixed(0),
    'ours+rg / rg': withRg.ratio.toFixed(2),
    'target ≤1.2': targets ? (withRg.ratio <= 1.2 ? 'PASS' : 'MISS') : '',
    'ours JS ms': js.ms.toFixed(0),
    'JS / rg': js.ratio.toFixed(2),
    'target ≤3': targets ? (js.ratio <= 3 ? 'PASS' : 'MISS') : '',
  };
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
      { name: 'rare literal', args: { pattern: 'zebraQuokka' }, rg: ['zebraQuokka'] },
      { name: 'regex, ~10% of lines', args: { pattern: 'TODO\\(\\w+\\)' }, rg: ['TODO\\(\\w+\\)'] },
      { name: 'case-insensitive regex', args: { pattern: 'ERROR\\(.(parse|token)', ignore_case: true }, rg: ['-i', 'ERROR\\(.(parse|token)'] },
      { name: 'common word (cap 200)', args: { pattern: 'function' }, rg: ['function'] },
      { name: 'glob *.js, rare literal', args: { pattern: 'zebraQuokka', glob: '*.js' }, rg: ['-g', '*.js', 'zebraQuokka'] },
    ];
    const searchFlags = ['--encoding', 'none', '--max-filesize', String(MAX_SEARCH_FILE_BYTES), '-n', '--column'];
    const rows = [];
    for (const c of cases) {
      if ((await runTool(grepRg, c.args, root)) !== (await runTool(grepJs, c.args, root))) throw new Error(`engines disagree on ${c.name}`);
      const [raw, withRg, js] = await race([() => rawRg([...searchFlags, ...c.rg], root), () => runTool(grepRg, c.args, root), () => runTool(grepJs, c.args, root)]);
      rows.push(row(c.name, raw, withRg, js, true));
    }
    const [rawFiles, listWithRg, listWithJs] = await race([() => rawRg(['--files'], root), () => runTool(listRg, {}, root), () => runTool(listJs, {}, root)]);
    rows.push(row('list_files, all (rg --files)', rawFiles, listWithRg, listWithJs, false));
    console.table(rows);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
