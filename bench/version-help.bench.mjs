// `vibe-agent --version` and `--help` against bare Node (`node -e 0`), spawned alternately in one
// run: the target is ≤ 1.2× for both. Wall time, median of 21; compare the ratios.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_REPEAT ?? 21);

export default async function versionHelp() {
  const commands = { 'node -e 0': ['-e', '0'], 'vibe-agent --version': [CLI, '--version'], 'vibe-agent --help': [CLI, '--help'] };
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, args] of Object.entries(commands)) {
      const started = performance.now();
      const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}`);
      times[name].push(performance.now() - started);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const base = median(times['node -e 0']);
  console.log(`\n--version and --help against bare Node (median of ${ROUNDS}, wall time)`);
  console.table(Object.entries(times).map(([command, values]) => ({ command, ms: median(values).toFixed(1), 'vs node -e 0': (median(values) / base).toFixed(2) })));
}

if (import.meta.url === `file://${process.argv[1]}`) await versionHelp();
