/**
 * Issue 41 point 3 in a terminal (tmux): a 2,701-line paste shows as one chip with its size — the
 * prompt and the scrollback do not fill with it — and goes to the model as an attachment (head, tail,
 * the whole kept for read_output), the UI saying so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, requireTmux } from './support/tmux.js';
import { tuiSession } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

describe('a long paste in the interactive UI', () => {
  it('is a chip in the prompt and in the scrollback, and an attachment for the model', async () => {
    const { server, pane } = await tuiSession(cleanups, [{ text: 'The first error is on line 1.' }], { args: [], height: 30 });
    await pane.waitFor('/help for commands');
    const log = Array.from({ length: 2_701 }, (_, i) => `log line ${i + 1}: ${'x'.repeat(30)}`).join('\n');
    // Too long for a tmux command line: the paste buffer is loaded from a file, then pasted bracketed.
    const dir = mkdtempSync(join(tmpdir(), 'vibe-paste-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'log.txt'), log);
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', pane.socket, '-f', '/dev/null', ...args], { env: { ...process.env, TMUX: '' } });
    tmux('load-buffer', '-b', 'big', join(dir, 'log.txt'));
    tmux('paste-buffer', '-p', '-d', '-b', 'big', '-t', 'main');
    const chip = '[pasted text #1: 2,701 lines, 123.1 kB]';
    const prompt = await pane.waitFor(chip);
    expect(prompt).not.toContain('log line 2:');
    await pane.send(['what fails? '], { literal: true });
    await pane.send(['Enter']);
    const screen = await pane.waitFor('The first error is on line 1.');
    expect(screen).toContain(`› ${chip} what fails?`);
    // The note counts the words typed after the chip too; the pane wraps it.
    expect(screen).toMatch(/⎿ the prompt \(2,701 lines, 123\.2 kB\) went as an attachment: its first and last characters in the message,\s+the whole for read_output \(id out_[0-9a-f]{12}\)/);
    expect(screen).not.toContain('log line 2:');
    const sent = String(server.requests[0]!.messages.at(-1)!.content);
    expect(sent).toMatch(/^<pasted-text size="2,701 lines, 123\.2 kB" id="out_[0-9a-f]{12}">\nlog line 1: x+\n/);
    expect(sent).toMatch(/log line 2701: x+ what fails\?\n<\/pasted-text>$/);
    expect(sent.length).toBeLessThan(8_300);
    await pane.waitFor((now) => !now.trimEnd().split('\n').at(-1)!.includes('working'));
    await pane.send(['C-d']);
    expect(await pane.waitForExit()).toBe(0);
  }, 60_000);
});
