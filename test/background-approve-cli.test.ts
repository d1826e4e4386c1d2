import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentUntil, agents, backgroundHome, repository, startBackground, writesAskedFile } from './support/background-cli.js';
import { startChatServer } from './support/chat-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const reply = writesAskedFile('written.');

describe('approvals of a background session from the terminal (the built CLI)', () => {
  it('shows the waiting question in agents, answers exactly the named request, and a second answer changes nothing', { timeout: 300_000 }, async () => {
    const model = await startChatServer([reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    repository(home);
    const { watch } = await startBackground(home, ['-w', 'asker', '--permission-mode', 'ask', 'write asked.txt'], 'question', cleanups);
    let rows = await agents(home);
    expect(rows[0]).toMatchObject({ name: 'asker', state: 'needs you' });
    const [pending] = rows[0]!.pendingApprovals;
    expect(pending).toMatchObject({ tool: 'write_file' });
    expect(pending!.summary).toContain('asked.txt');
    const listed = await home.run(['agents']);
    expect(listed.stdout).toContain(`waiting for approval ${pending!.requestId}: write_file`);
    expect(listed.stdout).toContain('(vibe-agent approve asker)');

    // No terminal and no request named: it shows the question whole and answers nothing.
    const unnamed = await home.run(['approve', 'asker']);
    expect(unnamed.code).not.toBe(0);
    expect(unnamed.stderr).toContain(`approval ${pending!.requestId}: write_file`);
    expect(unnamed.stderr).toContain('after the approval');
    expect(unnamed.stderr).toContain(`nothing answered; run it in a terminal to be asked, or name the request: vibe-agent approve asker ${pending!.requestId}`);
    expect((await agents(home))[0]!.state).toBe('needs you');

    const wrong = await home.run(['approve', 'asker', 'no-such-request']);
    expect(wrong.stderr).toContain(`asker has no waiting approval no-such-request (waiting: ${pending!.requestId})`);

    const approved = await home.run(['approve', 'asker', pending!.requestId]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Allowed: write_file');
    const stop = await watch.until((event) => event.type === 'stop', 'the stop');
    expect(readFileSync(join(rows[0]!.worktree!, 'asked.txt'), 'utf8')).toBe('after the approval\n');
    await agentUntil(home, (row) => row.state === 'done', 'done after the approval');

    // The question desk: the first answer won; a later one for the same request is refused.
    const again = await home.run(['approve', 'asker', pending!.requestId, '--deny']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`asker has no waiting approval ${pending!.requestId} (nothing is waiting)`);
    expect(watch.events.filter((event) => event.type === 'question_answered' && event.seq < stop.seq)).toHaveLength(1);
  });
});
