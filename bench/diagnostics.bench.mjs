// Diagnostics after edits: the time an edit_file call gains when the project's own tsc reports what
// the edit broke, on a generated 200-file TypeScript project (each file imports the previous one).
// First edit (no baseline yet: after the write tsc checks the old text, cold, then the new; a
// command checker lists the edited file's problems) and steady state (the
// last run is the baseline: one incremental tsc run per edit), against the same edits with
// diagnostics off and in a project with no checker. Through the registry, as the loop calls them.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDiagnosticsObserver, createFileTools, ToolRegistry } from '../dist/index.js';

const FILES = 200;
let round = 0;
const STEADY_EDITS = 5;
const TYPESCRIPT = resolve(import.meta.dirname, '../node_modules/typescript');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function makeProject(withChecker) {
  const ws = await mkdtemp(join(tmpdir(), 'vibe-bench-diag-'));
  await mkdir(join(ws, 'src'));
  if (withChecker) {
    await mkdir(join(ws, 'node_modules'));
    await symlink(TYPESCRIPT, join(ws, 'node_modules', 'typescript'));
    await writeFile(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', skipLibCheck: true, types: [] }, include: ['src'] }));
  }
  for (let i = 0; i < FILES; i++) {
    const lines = [i > 0 ? `import { value${i - 1} } from './m${i - 1}.js';` : 'const start = 1;'];
    lines.push(`export interface Shape${i} { id: number; name: string; tags: string[] }`);
    for (let f = 0; f < 10; f++) lines.push(`export function f${i}_${f}(shape: Shape${i}): number {\n  return shape.id * ${f} + shape.tags.length;\n}`);
    lines.push(`export const value${i}: number = ${i > 0 ? `value${i - 1} + 1` : 'start'};`, '// edit here: 0');
    await writeFile(join(ws, 'src', `m${i}.ts`), lines.join('\n') + '\n');
  }
  return ws;
}

async function timeEdits(ws, observer) {
  // The observer's second step is called right after the bytes land: when the edit is on disk.
  let writtenAt = 0;
  const observeWrite = observer && (async (absolute, context) => {
    const after = await observer(absolute, context);
    return async () => {
      writtenAt = performance.now();
      return after?.();
    };
  });
  const registry = new ToolRegistry(createFileTools(observeWrite ? { observeWrite } : {}));
  const invoke = (name, args) => registry.invoke({ id: 'b', name, arguments: JSON.stringify(args) }, { workspace: ws });
  const path = `src/m${FILES / 2}.ts`;
  const times = [];
  let firstWritten = 0;
  let output = '';
  const marker = (i) => `// edit here: ${round}.${i}`;
  round++;
  await writeFile(join(ws, path), (await readFile(join(ws, path), 'utf8')).replace(/\/\/ edit here: .*/, marker(0)));
  await invoke('read_file', { path });
  for (let i = 0; i <= STEADY_EDITS; i++) {
    const started = performance.now();
    // Each edit changes a function's body, so the checker really has something to re-check.
    const result = await invoke('edit_file', { path, old_string: marker(i), new_string: `${marker(i + 1)}\nexport const extra${round}_${i} = value${FILES / 2} * ${i};` });
    times.push(performance.now() - started);
    if (i === 0) firstWritten = (observeWrite ? writtenAt : performance.now()) - started;
    output = result.content;
    if (result.status !== 'ok') throw new Error(result.content);
  }
  return { first: times[0], firstWritten, steady: median(times.slice(1)), output };
}

export default async function diagnosticsBench() {
  const checked = await makeProject(true);
  const plain = await makeProject(false);
  const rows = [];
  try {
    const off = await timeEdits(checked, undefined);
    const none = await timeEdits(plain, createDiagnosticsObserver({ setting: 'auto' }));
    const tsc = await timeEdits(checked, createDiagnosticsObserver({ setting: 'auto', timeoutMs: 300_000 }));
    // For comparison: a fresh `tsc --noEmit --incremental` process per check, its build info kept between edits.
    const incremental = `node node_modules/typescript/bin/tsc --noEmit --incremental --tsBuildInfoFile ${join(checked, '.tsbuildinfo')} --pretty false -p tsconfig.json`;
    const cli = await timeEdits(checked, createDiagnosticsObserver({ setting: { command: incremental, format: 'tsc', timeout: 300 } }));
    for (const { output } of [tsc, cli]) if (/problem|Diagnostics/.test(output)) throw new Error(`unexpected diagnostics: ${output}`);
    rows.push({ case: 'diagnostics off', 'first edit ms': off.first.toFixed(1), 'first edit on disk after ms': off.firstWritten.toFixed(1), 'steady ms/edit': off.steady.toFixed(1), 'added ms (steady)': '—' });
    rows.push({ case: 'auto, no checker in the project', 'first edit ms': none.first.toFixed(1), 'first edit on disk after ms': none.firstWritten.toFixed(1), 'steady ms/edit': none.steady.toFixed(1), 'added ms (steady)': (none.steady - off.steady).toFixed(1) });
    rows.push({ case: "auto: the project's typescript, kept running", 'first edit ms': tsc.first.toFixed(0), 'first edit on disk after ms': tsc.firstWritten.toFixed(1), 'steady ms/edit': tsc.steady.toFixed(0), 'added ms (steady)': (tsc.steady - off.steady).toFixed(0) });
    rows.push({ case: 'config: tsc --incremental per check', 'first edit ms': cli.first.toFixed(0), 'first edit on disk after ms': cli.firstWritten.toFixed(1), 'steady ms/edit': cli.steady.toFixed(0), 'added ms (steady)': (cli.steady - off.steady).toFixed(0) });
  } finally {
    await rm(checked, { recursive: true, force: true });
    await rm(plain, { recursive: true, force: true });
  }
  console.log(`\nDiagnostics after edits on a ${FILES}-file TypeScript project (steady: median of ${STEADY_EDITS} edits)`);
  console.table(rows);
}
