import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentUntil, agents, backgroundHome, repository, startBackground, writesAskedFile } from './support/background-cli.js';
import { startChatServer } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { startInTmux, type TmuxPane } from './support/tmux.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const reply = writesAskedFile('written the file.');

describe('vibe-agent attach (the built CLI in tmux, against a local model server)', () => {
  it('shows the history then live events in two terminals, answers the approval in one, detaches leaving the session, and shows a finished session', { timeout: 300_000 }, async () => {
    const model = await startChatServer([reply, reply, () => ({ text: 'the second answer.' })]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    repository(home);
    const { row, watch } = await startBackground(home, ['-w', 'asker', '--permission-mode', 'ask', 'write asked.txt'], 'question', cleanups);
    expect((await agents(home))[0]!.state).toBe('needs you');

    // Without a terminal it says what to use instead, and changes nothing.
    const piped = await home.run(['attach', 'asker']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('attach opens the terminal UI: run it in a terminal (vibe-agent logs asker -f');

    const attach = async (): Promise<TmuxPane> => {
      const pane = await startInTmux([process.execPath, CLI, 'attach', 'asker'], { cwd: home.workspace, width: 120, height: 40, env: { ...home.env, TERM: 'tmux-256color' } });
      cleanups.push(() => pane.kill());
      return pane;
    };
    const waiting = (text: string) => text.includes('y yes') && text.includes('Ctrl-D or /detach detaches');
    // Detaching while the session waits leaves it waiting, for the next terminal to answer.
    const early = await attach();
    await early.waitFor(waiting, 60_000);
    await early.send(['C-d']);
    expect(await early.waitForExit(60_000)).toBe(0);
    expect(await early.screen()).toContain('Detached from asker; it keeps going in the background');
    expect((await agents(home))[0]).toMatchObject({ name: 'asker', state: 'needs you' });

    const first = await attach();
    const second = await attach();
    for (const pane of [first, second]) {
      // The history (its prompt), the key line naming how to detach, and the waiting question.
      const screen = await pane.waitFor(waiting, 60_000);
      expect(screen).toContain('› write asked.txt');
      expect(screen).toContain('asked.txt');
    }

    await first.send(['y']);
    for (const pane of [first, second]) await pane.waitFor('written the file.', 60_000);
    await watch.until((event) => event.type === 'stop', 'the first stop');
    expect(readFileSync(join(row.worktree!, 'asked.txt'), 'utf8')).toBe('after the approval\n');
    expect(watch.events.filter((event) => event.type === 'question_answered')).toMatchObject([{ answer: 'yes' }]);
    // The other terminal's question was withdrawn: it is answered nowhere else.
    const withdrawn = await second.waitFor((text) => !text.includes('y yes') && text.includes('allowed elsewhere'), 60_000);
    expect(withdrawn).not.toContain('denied');
    expect(await first.screen()).toMatch(/write_file write asked\.txt \(new, 1 line\) allowed\n/);

    // A prompt from one terminal runs in the session; both see its answer.
    await first.send(['and now?'], { literal: true });
    await first.send(['Enter']);
    for (const pane of [first, second]) await pane.waitFor('the second answer.', 60_000);
    const stops = () => watch.events.filter((event) => event.type === 'stop').length;
    await watch.until((event) => event.type === 'stop' && stops() >= 2, 'the second stop');

    // Ctrl-D detaches: the terminal ends, the session stays with the server.
    await first.send(['C-d']);
    expect(await first.waitForExit(60_000)).toBe(0);
    expect(await first.screen()).toContain('Detached from asker (idle: vibe-agent attach asker sends it a prompt).');
    await second.send(['C-d']);
    expect(await second.waitForExit(60_000)).toBe(0);
    await agentUntil(home, (row) => row.name === 'asker' && row.state === 'done', 'asker done after its second prompt');

    // A finished session: shown whole, nothing forked, nothing sent to the model.
    const requests = model.requests.length;
    const third = await attach();
    const shown = await third.waitFor((text) => text.includes('the second answer.') && text.includes('› and now?'), 60_000);
    expect(shown).toContain('written the file.');
    // What would change the session's file from here is refused, with the reason.
    await third.send(['/clear'], { literal: true });
    await third.send(['Enter']);
    await third.waitFor('/clear failed: an attached session is changed by its own server', 60_000);
    await third.send(['C-d']);
    expect(await third.waitForExit(60_000)).toBe(0);
    expect(await third.screen()).toContain('Detached from asker (idle: vibe-agent attach asker sends it a prompt).');
    expect(model.requests.length).toBe(requests);
    expect(await agents(home)).toHaveLength(1);

    // A stopped session: shown the same way.
    const stopped = await home.run(['stop', 'asker']);
    expect(stopped.code, stopped.stderr).toBe(0);
    const fourth = await attach();
    await fourth.waitFor((text) => text.includes('the second answer.') && text.includes('› write asked.txt'), 60_000);
    await fourth.send(['C-d']);
    expect(await fourth.waitForExit(60_000)).toBe(0);
    expect(await fourth.screen()).toContain('Detached from asker');
  });
});
