import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli/parse-command-line.js';
import { agents, backgroundHome, gitIn, killServer, repository, serverOf } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { EventWatch } from './support/event-watch.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('-w with or without a name, --base', () => {
  it('takes the word after -w as the name only when it looks like one and a task follows', () => {
    expect(parseCliArgs(['--bg', '-w', 'fixer', 'fix the parser']).background).toEqual({ worktree: 'fixer' });
    expect(parseCliArgs(['--bg', '-w', 'fix the parser']).background).toEqual({ worktree: '' });
    const lone = parseCliArgs(['--bg', '-w', 'refactor']);
    expect([lone.background, lone.prompt]).toEqual([{ worktree: '' }, 'refactor']);
    expect(parseCliArgs(['--bg', '--worktree=x1', '--base', 'v1', 'task']).background).toEqual({ worktree: 'x1', base: 'v1' });
    expect(parseCliArgs(['--bg', '-w', '--base', 'main~1', 'task']).background).toEqual({ worktree: '', base: 'main~1' });
    expect(() => parseCliArgs(['--bg', '--base', 'v1', 'task'])).toThrow('--base goes with --bg -w');
    expect(() => parseCliArgs(['--bg', '--worktree=../out', 'task'])).toThrow('a worktree name is letters, digits');
  });
});

function reply(body: ChatRequestBody) {
  const answered = body.messages.some((message) => message.role === 'tool');
  return answered ? { text: 'notes left.' } : { toolCalls: [{ id: 'n1', name: 'write_file', arguments: { path: 'notes.txt', content: 'notes\n' } }] };
}

describe('a worktree with a made-up name from a chosen base, and discarding it (the built CLI)', () => {
  it('names the worktree, starts it from --base, and removes it only after saying what would be lost', { timeout: 300_000 }, async () => {
    const model = await startChatServer([reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const repo = repository(home, 'first\n');
    gitIn(repo, 'tag', 'v1');
    const v1 = gitIn(repo, 'rev-parse', 'v1').trim();
    writeFileSync(join(repo, 'shared.txt'), 'second\n');
    gitIn(repo, 'commit', '-qam', 'second');

    const bad = await home.run(['--bg', '-w', '--base', 'nosuch', 'TASK-N: leave notes']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`--base nosuch is not a commit in ${repo}`);
    expect(gitIn(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);

    const started = await home.run(['--bg', '-w', '--base', 'v1', '--permission-mode', 'auto-edit', 'TASK-N: leave notes']);
    expect(started.code, started.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const name = /^Started (task-n-leave-[0-9a-f]{4}) \(session/.exec(started.stdout)?.[1];
    expect(name, started.stdout).toBeDefined();
    expect(started.stdout).toContain(`on branch vibe/${name} from ${v1.slice(0, 12)} (--base v1)`);
    const [row] = await agents(home);
    expect(row).toMatchObject({ name, branch: `vibe/${name}`, base: v1 });
    const server = serverOf(home);
    const watch = new EventWatch({ baseUrl: server.url, token: server.token, sessionId: row!.id });
    cleanups.push(() => watch.close());
    await watch.until((event) => event.type === 'stop', 'the stop');
    const worktree = row!.worktree!;
    expect(readFileSync(join(worktree, 'shared.txt'), 'utf8')).toBe('first\n');
    expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe('notes\n');
    writeFileSync(join(worktree, 'extra.txt'), 'committed work\n');
    gitIn(worktree, 'add', 'extra.txt');
    gitIn(worktree, 'commit', '-qm', 'extra work');

    // No terminal and no --yes: it says what would be lost and removes nothing.
    const asked = await home.run(['discard', name!]);
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toContain(`Discarding ${name} removes ${worktree} and the branch vibe/${name}, and loses:`);
    expect(asked.stderr).toContain('uncommitted: notes.txt (new file)');
    expect(asked.stderr).toMatch(/commit on no other branch: [0-9a-f]+ extra work/);
    expect(asked.stderr).not.toContain('deps');
    expect(asked.stderr).toContain('not removed; run it in a terminal to be asked, or add --yes');
    expect(existsSync(join(worktree, 'notes.txt'))).toBe(true);

    const removed = await home.run(['discard', name!, '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Removed ${worktree} and the branch vibe/${name}.`);
    expect(existsSync(worktree)).toBe(false);
    expect(gitIn(repo, 'branch', '--list', `vibe/${name}`)).toBe('');
    expect(existsSync(join(repo, 'deps', 'lib.txt'))).toBe(true);
    expect(await agents(home)).toEqual([]);
  });
});
