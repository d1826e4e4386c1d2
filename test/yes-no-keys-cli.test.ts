/**
 * The CLI's other yes/no questions take the same single keys as an approval (src/cli/setup/ask-yes-no.ts):
 * `vibe-agent rewind` asking before it overwrites files the user changed, at a terminal (tmux).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './support/cli-process.js';
import { useChatCli } from './support/chat-cli.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';

const cleanups = cleanupAfterEach();
requireTmux();
const setup = useChatCli(['--sandbox', 'off']);
const KEYS = '(Esc = no, Ctrl-C stops the run)';

/** A run that wrote notes.txt, then the user's own edit of it, then `vibe-agent rewind` in a tmux pane. */
async function rewindAtTerminal() {
  const { home, run, file } = await setup([{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'agent\n' } }] }, { text: 'Wrote it.' }]);
  expect((await run(['write notes', '--yes'])).code).toBe(0);
  writeFileSync(file('notes.txt'), 'mine\n');
  const pane = await startInTmux([process.execPath, CLI, 'rewind'], { cwd: home.workspace, width: 140, height: 30, env: { ...home.env, TERM: 'tmux-256color' } });
  cleanups.push(() => pane.kill());
  const question = await pane.waitFor(KEYS);
  expect(question).toContain('notes.txt');
  expect(question).toContain('Overwrite them?');
  return { pane, file };
}

describe('yes/no questions outside a run take one key', () => {
  it('n alone (no Enter) keeps the file the user changed', async () => {
    const { pane, file } = await rewindAtTerminal();
    await pane.send(['n']);
    await pane.waitForExit();
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('mine\n');
    expect(await pane.screen()).toMatch(/Overwrite them\?.*\n {2}no\n/);
  });

  it('y alone overwrites it with what the rewind restores (the file did not exist before the prompt)', async () => {
    const { pane, file } = await rewindAtTerminal();
    await pane.send(['y']);
    expect(await pane.waitForExit()).toBe(0);
    expect(await pane.screen()).toMatch(/Overwrite them\?.*\n {2}yes\n/);
    expect(() => readFileSync(join(file('notes.txt')), 'utf8')).toThrow();
  });
});
