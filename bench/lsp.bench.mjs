// code_nav against grep + read_file for "find every caller of area", on generated projects: a
// TypeScript one of 2,000 files and a Python one of 500 (BENCH_LSP_TS / BENCH_LSP_PY change the
// sizes). One file in 20 calls the function `area`; one in 7 has a class with a method `area`, which
// grep cannot tell apart without reading the file. Measured: time to the first answer (the server
// cold: started, project loaded) and the next (warm), the servers' RSS, and the o200k tokens the
// model receives through `references` against through `grep` + `read_file` of every file grep names.
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createCodeNavTool } from '../dist/lsp/code-nav-tool.js';
import { LspServers } from '../dist/lsp/lsp-servers.js';
import { admittedServers } from '../dist/lsp/code-nav-setup.js';
import { createSearchTools } from '../dist/tools/coding/search-tools.js';
import { createFileTools } from '../dist/tools/coding/file-tools.js';

const BIN = resolve(import.meta.dirname, '../node_modules/.bin');
const noSpecial = { disallowedSpecial: new Set() };
const tokens = (text) => countTokens(text, noSpecial);

async function tsProject(files) {
  const ws = await mkdtemp(join(tmpdir(), 'vibe-bench-lsp-ts-'));
  await mkdir(join(ws, 'src'));
  await writeFile(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', skipLibCheck: true, types: [] }, include: ['src'] }));
  await writeFile(join(ws, 'src', 'geometry.ts'), 'export function area(width: number, height: number): number {\n  return width * height;\n}\n');
  for (let i = 0; i < files; i++) {
    const lines = [];
    if (i % 20 === 0) lines.push("import { area } from './geometry.js';", `export function use${i}(): number {\n  return area(${i}, 2);\n}`);
    else if (i % 7 === 0) lines.push(`export class Box${i} {\n  area(): number {\n    return ${i};\n  }\n}`, `export const b${i} = new Box${i}().area();`);
    for (let f = 0; f < 8; f++) lines.push(`export function f${i}_${f}(x: number): number {\n  return x * ${f} + ${i};\n}`);
    await writeFile(join(ws, 'src', `m${i}.ts`), lines.join('\n') + '\n');
  }
  return { ws, file: 'src/geometry.ts', callers: Math.ceil(files / 20) };
}

async function pyProject(files) {
  const ws = await mkdtemp(join(tmpdir(), 'vibe-bench-lsp-py-'));
  await writeFile(join(ws, 'geometry.py'), 'def area(width: int, height: int) -> int:\n    return width * height\n');
  for (let i = 0; i < files; i++) {
    const lines = [];
    if (i % 20 === 0) lines.push('from geometry import area', '', '', `def use${i}() -> int:\n    return area(${i}, 2)`);
    else if (i % 7 === 0) lines.push(`class Box${i}:\n    def area(self) -> int:\n        return ${i}`, '', '', `b${i} = Box${i}().area()`);
    for (let f = 0; f < 8; f++) lines.push('', '', `def f${i}_${f}(x: int) -> int:\n    return x * ${f} + ${i}`);
    await writeFile(join(ws, `m${i}.py`), lines.join('\n') + '\n');
  }
  return { ws, file: 'geometry.py', callers: Math.ceil(files / 20) };
}

/** RSS of these processes and all their descendants, in MB (Linux /proc). */
async function treeRssMb(pids) {
  const parents = new Map();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(Number(entry), ppid);
  }
  const tree = new Set(pids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) if (tree.has(ppid) && !tree.has(pid)) (tree.add(pid), (grew = true));
  }
  let kb = 0;
  for (const pid of tree) kb += Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function measure(name, project) {
  const { ws, file } = project;
  const env = { ...process.env, PATH: `${BIN}:${process.env.PATH}` };
  const context = { signal: new AbortController().signal, workspace: ws };
  const found = await admittedServers({ workspace: ws, env, userServers: {}, projectServers: {}, trustAll: false, ask: undefined, warn: () => {} });
  const servers = new LspServers({ found, workspace: ws, env, timeoutMs: 300_000 });
  const nav = createCodeNavTool({ servers });
  const ask = { operation: 'references', path: file, symbol: 'area' };
  let started = performance.now();
  const cold = await nav.execute(ask, context);
  const coldMs = performance.now() - started;
  started = performance.now();
  const warm = await nav.execute(ask, context);
  const warmMs = performance.now() - started;
  const rss = await treeRssMb(servers.runningPids());
  await servers.close();
  const [grep] = createSearchTools().filter((tool) => tool.name === 'grep');
  const [read] = createFileTools().filter((tool) => tool.name === 'read_file');
  const grepped = String(await grep.execute({ pattern: '\\barea\\b', max_results: 1000 }, context));
  const named = [...new Set(grepped.split('\n').map((line) => /^([^:\s]+\.(?:ts|py)):\d+:/.exec(line)?.[1]).filter(Boolean))];
  let readTokens = 0;
  for (const path of named) readTokens += tokens(String(await read.execute({ path }, context)));
  const text = typeof warm === 'string' ? warm : warm.output;
  const places = Number(/^(\d+) reference/.exec(text)?.[1] ?? 0);
  await rm(ws, { recursive: true, force: true });
  return {
    project: name,
    'references found': `${places} (expected ${project.callers * 2 + 1})`,
    'cold first answer': `${(coldMs / 1000).toFixed(1)} s`,
    'warm answer': `${Math.round(warmMs)} ms`,
    'servers RSS': `${rss} MB`,
    'tokens: references': tokens(text),
    'tokens: grep': tokens(grepped),
    'tokens: grep + read_file': `${tokens(grepped) + readTokens} (${named.length} files read)`,
    cold: typeof cold === 'string' ? 'ok' : cold.output.slice(0, 80),
  };
}

export default async function run() {
  const rows = [];
  rows.push(await measure(`TypeScript, ${Number(process.env.BENCH_LSP_TS ?? 2000)} files`, await tsProject(Number(process.env.BENCH_LSP_TS ?? 2000))));
  rows.push(await measure(`Python, ${Number(process.env.BENCH_LSP_PY ?? 500)} files`, await pyProject(Number(process.env.BENCH_LSP_PY ?? 500))));
  console.log('\ncode_nav references vs grep + read_file ("find every caller of area")');
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
