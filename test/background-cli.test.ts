import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRow } from '../src/cli/commands/background/agent-status.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { agents, alive, backgroundHome, gitIn, repository, serverOf } from './support/background-cli.js';
import { waitFor } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { startServe } from './support/serve-process.js';

// Background sessions end to end: the built CLI (npm run build), a scripted chat server, real git.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ORIGINAL = 'line 1\nline 2\nline 3\nline 4\nline 5\n';
const USER_EDIT = 'line 1 (the user, uncommitted)\nline 2\nline 3\nline 4\nline 5\n';
const A_WRITES = 'line 1\nline 2\nline 3\nline 4\nline 5 (session A)\n';

/** Each session's replies by its task's marker: a write, then (after the tool result) a short answer. */
function reply(body: ChatRequestBody) {
  const text = JSON.stringify(body.messages);
  const results = body.messages.filter((message) => message.role === 'tool').length;
  const answered = results > 0;
  if (text.includes('TASK-A')) {
    if (results === 0) return { toolCalls: [{ id: 'a0', name: 'read_file', arguments: { path: 'shared.txt' } }] };
    return results === 1 ? { toolCalls: [{ id: 'a1', name: 'write_file', arguments: { path: 'shared.txt', content: A_WRITES } }] } : { text: 'A is done.' };
  }
  return answered ? { text: 'B is done.' } : { toolCalls: [{ id: 'b1', name: 'write_file', arguments: { path: 'b-notes.txt', content: 'B was here\n' } }] };
}

describe('background sessions in worktrees, agents, land and rewind (the built CLI)', () => {
  it('runs two sessions in worktrees, lands one into a dirty checkout, rewinds the land, and keeps the other through a prune and a server restart', { timeout: 300_000 }, async () => {
    const model = await startChatServer([reply, reply, reply, reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const repo = repository(home, ORIGINAL);
    const head = gitIn(repo, 'rev-parse', 'HEAD').trim();

    // --bg returns at once with the id and name; the first one starts the server, detached.
    const startedA = await home.run(['--bg', '-w', 'alpha', '--permission-mode', 'auto-edit', 'TASK-A: change line 5']);
    expect(startedA.code, startedA.stderr).toBe(0);
    const server = serverOf(home);
    cleanups.push(async () => {
      if (alive(server.pid)) process.kill(server.pid, 'SIGKILL');
      await waitFor(() => !alive(server.pid), 'the background server to exit', 60_000);
    });
    expect(startedA.stdout).toMatch(/^Started alpha \(session \S+\) in the background \(the session server started: http:\/\/127\.0\.0\.1:\d+\)/);
    expect(startedA.stdout).toContain(`on branch vibe/alpha from ${head.slice(0, 12)}`);
    expect(startedA.stdout).toContain('linked deps (.worktreeinclude)');
    expect(startedA.stdout).not.toContain(server.token);

    // One at a time, so the scripted model answers in a known order; both stay hosted side by side.
    const watchStop = async (id: string, what: string) => {
      const watch = new EventWatch({ baseUrl: server.url, token: server.token, sessionId: id });
      cleanups.push(() => watch.close());
      await watch.until((event) => event.type === 'stop', what);
    };
    await watchStop((await agents(home))[0]!.id, "alpha's stop");
    const startedB = await home.run(['--bg', '-w', 'beta', '--permission-mode', 'auto-edit', 'TASK-B: leave notes']);
    expect(startedB.code, startedB.stderr).toBe(0);
    expect(startedB.stdout).not.toContain('the session server started');
    let rows = await agents(home);
    expect(rows.map((row) => [row.name, row.branch, row.base])).toEqual([
      ['alpha', 'vibe/alpha', head],
      ['beta', 'vibe/beta', head],
    ]);
    const [alpha, beta] = rows as [AgentRow, AgentRow];
    expect(lstatSync(join(alpha.worktree!, 'deps')).isSymbolicLink()).toBe(true);
    await watchStop(beta.id, "beta's stop");
    rows = await agents(home);
    expect(rows.map((row) => [row.name, row.state, row.lastEvent?.type]), JSON.stringify(rows)).toEqual([
      ['alpha', 'done', 'stop'],
      ['beta', 'done', 'stop'],
    ]);
    expect(readFileSync(join(alpha.worktree!, 'shared.txt'), 'utf8')).toBe(A_WRITES);
    expect(readFileSync(join(beta.worktree!, 'b-notes.txt'), 'utf8')).toBe('B was here\n');
    // The sessions worked in their worktrees: the checkout is untouched.
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(ORIGINAL);
    expect(existsSync(join(repo, 'b-notes.txt'))).toBe(false);

    // The user edits the same file, uncommitted; a failing check lands nothing.
    writeFileSync(join(repo, 'shared.txt'), USER_EDIT);
    const failing = await home.run(['land', 'alpha', '--check', 'false']);
    expect(failing.code).not.toBe(0);
    expect(failing.stderr).toContain('the check "false" failed (exit 1). Nothing was applied.');
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);

    const landed = await home.run(['land', 'alpha', '--yes', '--check', 'grep -q "session A" shared.txt']);
    expect(landed.code, landed.stderr).toBe(0);
    expect(landed.stdout).toContain('passed (exit 0)');
    expect(landed.stdout).toContain('Merged with your uncommitted edits: shared.txt.');
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('line 1 (the user, uncommitted)\nline 2\nline 3\nline 4\nline 5 (session A)\n');
    // Nothing committed or staged in the checkout.
    expect(gitIn(repo, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(gitIn(repo, 'diff', '--cached', '--name-only')).toBe('');

    // rewind undoes the land, exactly: the user's edit is back, nothing else moved.
    const rewound = await home.run(['rewind']);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);
    expect(gitIn(repo, 'status', '--porcelain')).toBe(' M shared.txt\n');

    // A prune removes alpha's worktree (its work is landed) and keeps beta's (uncommitted work), saying why.
    const pruned = await home.run(['agents', '--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`removed ${alpha.worktree}`);
    expect(pruned.stdout).toContain(`kept ${beta.worktree}: it holds 1 uncommitted change`);
    expect(existsSync(alpha.worktree!)).toBe(false);
    expect(readFileSync(join(beta.worktree!, 'b-notes.txt'), 'utf8')).toBe('B was here\n');

    // A crash of the server and a restart: beta and its worktree are still there, the session reopened from its file.
    process.kill(server.pid, 'SIGKILL');
    await waitFor(() => !alive(server.pid), 'the killed server to be gone', 60_000);
    expect((await agents(home)).map((row) => [row.name, row.state])).toEqual([
      ['alpha', 'stopped'],
      ['beta', 'stopped'],
    ]);
    const restarted = await startServe([], { cwd: repo, env: home.env });
    cleanups.push(() => restarted.kill());
    const after = await agents(home, '--prune');
    expect(after.find((row) => row.name === 'beta')).toMatchObject({ state: 'done', worktree: beta.worktree, lastEvent: { type: 'stop' } });
    expect(readFileSync(join(beta.worktree!, 'b-notes.txt'), 'utf8')).toBe('B was here\n');
    expect(gitIn(repo, 'worktree', 'list')).toContain(beta.worktree!);
  });
});
