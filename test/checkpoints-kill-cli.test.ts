import { execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointsDir } from '../src/checkpoints/checkpoint-log.js';
import { useChatCli } from './support/chat-cli.js';
import { CLI_SESSION_TIMEOUT_MS, waitFor } from './support/cli-process.js';

const setup = useChatCli();

/** Whether a git process the CLI (`parent`) started waits to open a FIFO (the kernel's fifo_open, seen in /proc): the snapshot is held at the gate. */
function gitWaitsAtFifo(parent: number): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(git)') || Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      if (readFileSync(`/proc/${pid}/wchan`, 'utf8') === 'wait_for_partner') return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/** Lets a reader waiting on the FIFO go on: it opens, finds it empty and reads on (no reader: nothing to do). */
function release(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader waits.
  }
}

describe('a process killed while its background snapshot runs', () => {
  it(
    "keeps the turn's checkpoint: after a SIGKILL mid-snapshot, rewind brings back the file the agent changed and removes the one it made",
    async () => {
      const { home, env, file, read, run } = await setup([
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'by the agent\n' } }, { name: 'write_file', arguments: { path: 'made/new.txt', content: 'new\n' } }] },
        { text: 'done' },
        { text: 'done' },
      ]);
      writeFileSync(file('a.txt'), 'as the user left it\n');
      // The gate: a FIFO ignore file deeper in the tree, which git opens (and waits on) while the snapshot walks the workspace.
      mkdirSync(file('gated'));
      const fifo = file('gated/.gitignore');
      execFileSync('mkfifo', [fifo]);
      let child: ChildProcess | undefined;
      const ran = home.run(['--permission-mode', 'yolo', 'change a file'], env, (spawned) => (child = spawned));
      try {
        await waitFor(() => child !== undefined && gitWaitsAtFifo(child.pid!), 'the snapshot to wait at the gate', CLI_SESSION_TIMEOUT_MS);
        const sessions = join(checkpointsDir(home.workspace, home.env), 'sessions');
        const logText = () => (existsSync(sessions) ? readdirSync(sessions).map((name) => readFileSync(join(sessions, name), 'utf8')).join('') : '');
        await waitFor(() => read('a.txt') === 'by the agent\n' && read('made/new.txt') === 'new\n' && ['a.txt', 'made/new.txt'].every((path) => logText().includes(`"type":"pre-image","n":1,"path":"${path}"`)), 'both writes and their pre-images', CLI_SESSION_TIMEOUT_MS);
        // Still held: the snapshot has not finished, so the turn's tree is not in the log.
        expect(logText()).not.toMatch(/"tree":"[0-9a-f]{40}"/);
        child!.kill('SIGKILL');
        expect((await ran).signal).toBe('SIGKILL');
      } finally {
        child?.kill('SIGKILL');
        // Lets git (orphaned, waiting on the FIFO) go on to its end.
        release(fifo);
        rmSync(fifo, { force: true });
      }

      const listed = await run(['rewind', '--list']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('"change a file" · changed a.txt, made/new.txt');
      const rewound = await run(['rewind', '--to', '1']);
      expect(rewound.stderr).toBe('');
      expect(rewound.code).toBe(0);
      expect([read('a.txt'), read('made/new.txt')]).toEqual(['as the user left it\n', undefined]);
      expect(existsSync(file('made'))).toBe(false);
    },
    CLI_SESSION_TIMEOUT_MS * 3,
  );
});
