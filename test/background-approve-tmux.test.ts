import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentUntil, agents, backgroundHome, repository, startBackground, writesAskedFile } from './support/background-cli.js';
import { startChatServer } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { requireTmux, startInTmux } from './support/tmux.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const reply = writesAskedFile('written.');

describe('vibe-agent approve on a terminal (the built CLI in tmux)', () => {
  it('shows the waiting question whole; Ctrl-C leaves it waiting; one key (y) allows it', { timeout: 300_000 }, async () => {
    requireTmux();
    const model = await startChatServer([reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    repository(home);
    const { row, watch } = await startBackground(home, ['-w', 'asker', '--permission-mode', 'ask', 'write asked.txt'], 'question', cleanups);
    const [pending] = (await agents(home))[0]!.pendingApprovals;

    const approve = async () => {
      const pane = await startInTmux([process.execPath, CLI, 'approve', 'asker'], { cwd: home.workspace, width: 160, height: 30, env: { ...home.env, TERM: 'tmux-256color' } });
      cleanups.push(() => pane.kill());
      // The request, the tool and its line, the content it would write, and the keys.
      const shown = await pane.waitFor((screen) => screen.includes(`approval ${pending!.requestId}: write_file`) && screen.includes('y yes'), 60_000);
      expect(shown).toContain('asked.txt');
      expect(shown).toContain('after the approval');
      return pane;
    };

    const left = await approve();
    await left.send(['C-c']);
    expect(await left.waitForExit(60_000)).toBe(130);
    expect(await left.screen()).toContain('not answered: it is still waiting');
    expect((await agents(home))[0]).toMatchObject({ state: 'needs you', pendingApprovals: [{ requestId: pending!.requestId }] });

    const allowed = await approve();
    await allowed.send(['y']);
    expect(await allowed.waitForExit(60_000)).toBe(0);
    expect(await allowed.screen()).toContain('Allowed: write_file');
    await watch.until((event) => event.type === 'stop', 'the stop');
    expect(watch.events.filter((event) => event.type === 'question_answered')).toMatchObject([{ answer: 'yes' }]);
    expect(readFileSync(join(row.worktree!, 'asked.txt'), 'utf8')).toBe('after the approval\n');
    await agentUntil(home, (row) => row.state === 'done', 'done after the approval');
  });
});
