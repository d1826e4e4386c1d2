// What a checkpoint costs: snapshots of a 10,000-file workspace (first, unchanged, a few files
// changed, one 1 MB file added) and a rewind of a few files. Target: ≤ 200 ms when little changed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionCheckpoints } from '../dist/checkpoints/session-checkpoints.js';
import { restoreTree } from '../dist/checkpoints/restore.js';

const FILES = 10_000;
const ms = (n) => `${n.toFixed(0)} ms`;

async function timed(action) {
  const started = performance.now();
  const value = await action();
  return { value, ms: performance.now() - started };
}

export default async function () {
  const root = mkdtempSync(join(tmpdir(), 'vibe-bench-checkpoints-'));
  const workspace = join(root, 'ws');
  try {
    for (let i = 0; i < FILES; i++) {
      const dir = join(workspace, `pkg${i % 100}`, `mod${i % 7}`);
      if (i < 700) mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
    }
    writeFileSync(join(workspace, '.gitignore'), 'node_modules/\n');
    const store = new SessionCheckpoints({ workspace, sessionId: 'bench', env: { XDG_DATA_HOME: join(root, 'data') } });
    const first = await timed(() => store.snapshot());
    const unchanged = [];
    for (let i = 0; i < 5; i++) unchanged.push((await timed(() => store.snapshot())).ms);
    const changed = [];
    for (let i = 0; i < 5; i++) {
      for (let f = 0; f < 5; f++) writeFileSync(join(workspace, `pkg${f}`, `mod${f % 7}`, `file${f}.ts`), `changed ${i}\n`);
      changed.push((await timed(() => store.snapshot())).ms);
    }
    const before = (await store.snapshot()).tree;
    writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(1024 * 1024, 7));
    for (let f = 0; f < 5; f++) writeFileSync(join(workspace, `pkg${f}`, `mod${f % 7}`, `file${f}.ts`), 'the agent was here\n');
    const withBig = await timed(() => store.snapshot());
    const rewind = await timed(async () => restoreTree(store.git, before, (await store.snapshot()).tree));
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    console.log(`\ncheckpoints (${FILES} files; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores: wall times, git's CPU is a fraction of them)`);
    console.log(`  first snapshot                 ${ms(first.ms)}`);
    console.log(`  snapshot, nothing changed      ${ms(median(unchanged))} (median of 5)`);
    console.log(`  snapshot, 5 files changed      ${ms(median(changed))} (median of 5)   target ≤ 200 ms`);
    console.log(`  snapshot, + a 1 MB file        ${ms(withBig.ms)}`);
    console.log(`  rewind of 6 files (with its snapshot) ${ms(rewind.ms)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
