// What a checkpoint costs: snapshots of a 10,000-file workspace (first, unchanged, a few files
// changed, one 1 MB file added) and a rewind of a few files, with the git processes each one ran.
// Target: ≤ 200 ms when little changed. BENCH_BASELINE=dir/with/dist runs an earlier build's
// checkpoints on the same workspace in the same run, for ratios.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionCheckpoints } from '../dist/checkpoints/session-checkpoints.js';
import { applyRewind, planRewind } from '../dist/checkpoints/rewind.js';

const FILES = 10_000;
const ms = (n) => `${n.toFixed(0)} ms`;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function timed(action) {
  const started = performance.now();
  const value = await action();
  return { value, ms: performance.now() - started };
}

/** Records each git process a snapshot starts and its wall time. */
function profile(git) {
  const calls = [];
  const run = git.run.bind(git);
  git.run = async (args, input) => {
    const started = performance.now();
    const result = await run(args, input);
    calls.push(`${args[0]} ${(performance.now() - started).toFixed(0)}`);
    return result;
  };
  return calls;
}

async function measure(variant, workspace, dataHome) {
  const store = new variant.SessionCheckpoints({ workspace, sessionId: 'bench', env: { XDG_DATA_HOME: dataHome } });
  const calls = profile(store.git);
  const first = await timed(() => store.snapshot());
  const unchanged = [];
  let unchangedCalls = '';
  for (let i = 0; i < 5; i++) {
    calls.length = 0;
    unchanged.push((await timed(() => store.snapshot())).ms);
    unchangedCalls = calls.join(', ');
  }
  const changed = [];
  let changedCalls = '';
  for (let i = 0; i < 5; i++) {
    for (let f = 0; f < 5; f++) writeFileSync(join(workspace, `pkg${f}`, `mod${f % 7}`, `file${f}.ts`), `changed ${variant.name} ${i}\n`);
    calls.length = 0;
    changed.push((await timed(() => store.snapshot())).ms);
    changedCalls = calls.join(', ');
  }
  const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'bench' });
  writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(1024 * 1024, 7));
  for (let f = 0; f < 5; f++) writeFileSync(join(workspace, `pkg${f}`, `mod${f % 7}`, `file${f}.ts`), `the agent was here (${variant.name})\n`);
  writeFileSync(join(workspace, 'made-by-the-agent.ts'), 'export {};\n');
  const withBig = await timed(() => store.snapshot());
  await store.afterRun({ begun: Promise.resolve(await store.snapshot()) });
  const sessionPath = join(dataHome, 'session.jsonl');
  writeFileSync(sessionPath, '');
  calls.length = 0;
  const rewind = await timed(() => variant.rewind(store, checkpoint, sessionPath));
  const rewindCalls = calls.join(', ');
  const afterRewind = await timed(() => store.snapshot());
  rmSync(join(workspace, 'big.bin'), { force: true });
  return { name: variant.name, first: first.ms, unchanged: median(unchanged), unchangedCalls, changed: median(changed), changedCalls, withBig: withBig.ms, rewind: rewind.ms, rewindCalls, afterRewind: afterRewind.ms };
}

/** A rewind as the CLI does it: planned (a snapshot, the checks), then applied. */
function rewindWith(plan, apply) {
  return async (store, checkpoint, sessionPath) => apply(store, await plan(store, { checkpoint, files: true, conversation: false, sessionPath }));
}

export default async function main() {
  const root = mkdtempSync(join(tmpdir(), 'vibe-bench-checkpoints-'));
  const workspace = join(root, 'ws');
  try {
    for (let i = 0; i < FILES; i++) {
      const dir = join(workspace, `pkg${i % 100}`, `mod${i % 7}`);
      if (i < 700) mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
    }
    writeFileSync(join(workspace, '.gitignore'), 'node_modules/\n');
    const variants = [{ name: 'this build', SessionCheckpoints, rewind: rewindWith(planRewind, applyRewind) }];
    if (process.env.BENCH_BASELINE) {
      const dist = join(process.env.BENCH_BASELINE, 'dist', 'checkpoints');
      const earlier = await import(join(dist, 'rewind.js'));
      const baseline = { name: 'baseline', SessionCheckpoints: (await import(join(dist, 'session-checkpoints.js'))).SessionCheckpoints, rewind: rewindWith(earlier.planRewind, earlier.applyRewind) };
      variants.unshift(baseline);
    }
    const results = [];
    for (const [i, variant] of variants.entries()) results.push(await measure(variant, workspace, join(root, `data${i}`)));
    console.log(`\ncheckpoints (${FILES} files; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores: wall times)\n`);
    const two = results.length === 2;
    console.log(`| snapshot | ${results.map((r) => r.name).join(' | ')}${two ? ' | ratio' : ''} |\n|---|${results.map(() => '---|').join('')}${two ? '---|' : ''}`);
    const row = (label, key) => console.log(`| ${label} | ${results.map((r) => ms(r[key])).join(' | ')}${two ? ` | ${(results[1][key] / results[0][key]).toFixed(2)}× |` : ' |'}`);
    row('first snapshot', 'first');
    row('nothing changed (median of 5)', 'unchanged');
    row('5 files changed (median of 5; target ≤ 200 ms)', 'changed');
    row('+ a 1 MB file', 'withBig');
    row('rewind of 7 files (plan with its snapshot, apply)', 'rewind');
    row('the next snapshot after it', 'afterRewind');
    for (const r of results) console.log(`\n${r.name}: git processes (ms each), nothing changed: ${r.unchangedCalls}; 5 files changed: ${r.changedCalls}; rewind: ${r.rewindCalls}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
