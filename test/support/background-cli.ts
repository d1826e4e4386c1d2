/** Background-session CLI tests: a git repository as the workspace, the detached server's address, `agents --json`. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AgentRow } from '../../src/cli/commands/background/agent-status.js';
import type { ChatRequestBody } from './chat-server.js';
import { cliHome, waitFor, type CliHome } from './cli-process.js';
import { EventWatch } from './event-watch.js';

export const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** The home's workspace as a repository: shared.txt committed, deps/ ignored and named in .worktreeinclude. */
export function repository(home: CliHome, shared = 'line 1\nline 2\nline 3\nline 4\nline 5\n'): string {
  const repo = home.workspace;
  gitIn(repo, 'init', '-q', '-b', 'main');
  gitIn(repo, 'config', 'user.email', 'user@example.com');
  gitIn(repo, 'config', 'user.name', 'User');
  writeFileSync(join(repo, 'shared.txt'), shared);
  writeFileSync(join(repo, '.gitignore'), 'deps/\n');
  writeFileSync(join(repo, '.worktreeinclude'), '# what a build needs\ndeps\n');
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'start');
  mkdirSync(join(repo, 'deps'));
  writeFileSync(join(repo, 'deps', 'lib.txt'), 'a dependency\n');
  return repo;
}

/** A throwaway home whose CLI runs talk to `modelUrl` (a chat server) and keep worktrees under it. */
export function backgroundHome(modelUrl: string, extra: Record<string, string> = {}): CliHome {
  const home = cliHome();
  Object.assign(home.env, { XDG_STATE_HOME: join(home.root, 'state'), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: modelUrl, VIBE_MODEL: 'test-model', ...extra });
  return home;
}

export function serverOf(home: CliHome): { url: string; pid: number; token: string } {
  const state = join(home.env.XDG_DATA_HOME, 'vibe-agent', 'serve');
  const address = JSON.parse(readFileSync(join(state, 'address.json'), 'utf8')) as { url: string; pid: number };
  return { ...address, token: readFileSync(join(state, 'token'), 'utf8').trim() };
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Kills the detached server `--bg` started (a cleanup), and waits until it is gone. */
export async function killServer(home: CliHome): Promise<void> {
  let pid: number;
  try {
    pid = serverOf(home).pid;
  } catch {
    return;
  }
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  await waitFor(() => !alive(pid), 'the background server to exit', 60_000);
}

/** `agents --json FLAGS…`'s rows; a run not ended in 90 s fails naming it (past the CLI's own 60 s bound, whose message says more). */
export async function agents(home: CliHome, ...flags: string[]): Promise<AgentRow[]> {
  const ran = await home.runWithin(['agents', '--json', ...flags], 'agents --json', 90_000);
  expect(ran.code, ran.stderr).toBe(0);
  return (JSON.parse(ran.stdout) as { agents: AgentRow[] }).agents;
}

/**
 * Polls `agents --json` until a row passes `test` (a state, never a time). A session's `stop` event
 * comes before its run has quite ended (its Stop hooks run after it), so a state read at once after
 * the stop may still say working.
 */
export async function agentUntil(home: CliHome, test: (row: AgentRow) => boolean, what: string): Promise<AgentRow> {
  const deadline = Date.now() + 120_000;
  let rows: AgentRow[] = [];
  for (;;) {
    rows = await agents(home).catch((error: Error) => {
      throw new Error(`waiting for an agent ${what}: ${error.message}`);
    });
    const found = rows.find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no agent ${what}; rows: ${JSON.stringify(rows.map((row) => [row.name, row.state]))}`);
  }
}

/** A scripted model's turn: write asked.txt (the call an `ask` session stops at), then answer `done`. */
export function writesAskedFile(done: string) {
  return (body: ChatRequestBody) =>
    body.messages.some((message) => message.role === 'tool')
      ? { text: done }
      : { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'asked.txt', content: 'after the approval\n' } }] };
}

/**
 * `vibe-agent --bg ARGS…` in the home, the detached server's kill and an event watch on the session registered as cleanups,
 * then waits for the session's first event of type `until` ('question': it asks; 'stop': its run ended).
 */
export async function startBackground(home: CliHome, args: string[], until: 'question' | 'stop', cleanups: Array<() => unknown>) {
  const started = await home.runWithin(['--bg', ...args], 'starting the background session');
  expect(started.code, started.stderr).toBe(0);
  cleanups.push(() => killServer(home));
  const [row] = await agents(home);
  const server = serverOf(home);
  const watch = new EventWatch({ baseUrl: server.url, token: server.token, sessionId: row!.id });
  cleanups.push(() => watch.close());
  await watch.until((event) => event.type === until, `the session's ${until}`);
  return { row: row!, server, watch };
}
