import { groupAlive, signalGroup } from './kill-tree.js';

/** How long, on exit, living groups get between SIGTERM and SIGKILL. */
const EXIT_GRACE_MS = 500;

interface GroupSource {
  groups(): number[];
}

const sources = new Set<GroupSource>();
let installed = false;

/**
 * Makes sure every background process group dies with this process: on a normal exit, an error
 * exit, process.exit after Ctrl-C, and SIGTERM/SIGHUP (the terminal closing), which would otherwise
 * end Node without an 'exit' event. Nothing can run on SIGKILL; a group that called setsid has left.
 */
export function installExitCleanup(source: GroupSource): void {
  sources.add(source);
  if (installed) return;
  installed = true;
  process.on('exit', killEveryGroupNow);
  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killEveryGroupNow();
      // Only when no one else handles it (the CLI turns SIGTERM into an abort and exits by itself).
      if (process.listenerCount(signal) === 1) process.exit(128 + (signal === 'SIGHUP' ? 1 : 15));
    });
  }
}

/** Synchronous, because 'exit' handlers cannot wait: SIGTERM, a short busy wait, then SIGKILL. */
export function killEveryGroupNow(): void {
  const groups = [...sources].flatMap((source) => source.groups()).filter((pgid) => signalGroup(pgid, 'SIGTERM'));
  const deadline = Date.now() + EXIT_GRACE_MS;
  const tick = new Int32Array(new SharedArrayBuffer(4));
  let alive = groups;
  while (alive.length && Date.now() < deadline) {
    Atomics.wait(tick, 0, 0, 20);
    alive = alive.filter((pgid) => groupAlive(pgid));
  }
  for (const pgid of alive) signalGroup(pgid, 'SIGKILL');
}
