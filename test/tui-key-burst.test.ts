/**
 * Keys that arrive together in one read (typed fast, pasted, arrows back to back) reach the question
 * that is open, one after another, instead of falling through to the prompt: the /rewind picker takes
 * "↑↑⏎" and "2⏎" as single chunks.
 */
import { describe, expect, it } from 'vitest';
import { createTheme } from '../src/cli/display/theme.js';
import { InteractiveSession } from '../src/cli/tui/interactive.js';
import { typeNumber } from '../src/cli/tui/key-queue.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { VirtualTerminal } from './support/virtual-terminal.js';
import { testServices } from './support/tui-services.js';
import { FakeInput } from './support/fake-input.js';

const POINTS = ['    1  2026-12-04 10:00:00  "first" · changed a.txt', '    2  2026-12-04 10:05:00  "second" · changed b.txt', '    3  2026-12-04 10:09:00  "third" · ran no tools'];

describe('key bursts in the terminal UI', () => {
  it('the /rewind picker takes arrows and Enter in one chunk, and a typed number with Enter; nothing reaches the prompt', async () => {
    const terminal = new VirtualTerminal(100, 30);
    const input = new FakeInput();
    const provider = new ScriptedProvider([]);
    const chosen: Array<number | undefined> = [];
    const ended = new AbortController();
    const services = await testServices(provider, { system: 's', workspace: process.cwd() }, {
      checkpoints: async () => POINTS,
      checkpointNumbers: () => [1, 2, 3],
      rewind: async (n) => {
        chosen.push(n);
        return { lines: [`Rewound to point ${n}.`] };
      },
    });
    const session = new InteractiveSession({ signal: ended.signal, input, output: terminal.output, theme: createTheme(false), services, providerName: provider.name, model: 'm', tools: new ToolRegistry(), workspace: process.cwd(), maxTurns: 5 });
    const exited = session.run();
    input.type('/rewind\r');
    await terminal.waitFor('↑/↓ or its number choose');
    input.type('\x1b[A\x1b[A\r');
    await terminal.waitFor('Rewound to point 1.');

    input.type('/rewind\r');
    await terminal.waitFor((screen) => screen.split('↑/↓ or its number choose').length === 2 && screen.includes('Rewound to point 1.'));
    input.type('2\r');
    await terminal.waitFor('Rewound to point 2.');

    expect(chosen).toEqual([1, 2]);
    expect(provider.requests).toEqual([]);
    expect(terminal.screen().trimEnd().split('\n').filter((line) => /^› \S/.test(line) && !line.startsWith('› /rewind'))).toEqual([]);
    ended.abort();
    expect(await exited).toBe(0);
  });

  it('a typed number: digits extend while they name an item, else start again', () => {
    expect(typeNumber('', '3', 12)).toEqual({ typed: '3', index: 2 });
    expect(typeNumber('1', '2', 12)).toEqual({ typed: '12', index: 11 });
    expect(typeNumber('1', '5', 12)).toEqual({ typed: '5', index: 4 });
    expect(typeNumber('', '0', 12)).toEqual({ typed: '', index: undefined });
    expect(typeNumber('', '9', 3)).toEqual({ typed: '', index: undefined });
  });
});
