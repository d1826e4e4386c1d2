import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTerminalApproval } from '../src/cli/setup/terminal-approval.js';
import { approvalLines, createApprovalPrompt, type ApprovalUi } from '../src/cli/tui/approval-prompt.js';
import type { Key } from '../src/cli/tui/key-parser.js';
import { stripAnsi } from '../src/cli/display/text-width.js';
import { createTheme } from '../src/cli/display/theme.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import type { ApprovalRequest } from '../src/tools/approval.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';

const plain = createTheme(false);
const request: ApprovalRequest = {
  call: { id: 'c1', name: 'bash', arguments: '{"command":"rm -rf build"}' },
  tool: 'bash',
  summary: 'rm -rf build',
  always: 'bash(rm -rf build*)',
};

/** A scripted UI: keys are handed out one per `nextKey`, and everything shown is recorded. */
function scriptedUi(keys: Key[], maxDetailLines = 10) {
  const shown: Array<string[] | undefined> = [];
  const committed: string[] = [];
  const ui: ApprovalUi = {
    show: (lines) => shown.push(lines?.map(stripAnsi)),
    commit: (lines) => committed.push(...lines.map(stripAnsi)),
    nextKey: (signal) => (signal.aborted ? Promise.resolve(undefined) : Promise.resolve(keys.shift())),
    maxDetailLines: () => maxDetailLines,
  };
  return { ui, shown, committed };
}
const char = (text: string): Key => ({ name: 'char', text });

describe('the approval prompt', () => {
  it('answers yes, no and always from y, n and a, and says what was decided', async () => {
    for (const [key, answer, verdict] of [
      ['y', 'yes', 'allowed'],
      ['N', 'no', 'denied'],
      ['a', 'always', 'allowed (always: bash(rm -rf build*))'],
    ] as const) {
      const { ui, shown, committed } = scriptedUi([char(key)]);
      expect(await createApprovalPrompt(ui, plain)(request, new AbortController().signal)).toBe(answer);
      expect(shown[0]![0]).toBe('? Allow bash? rm -rf build');
      expect(shown.at(-1)).toBeUndefined(); // the question is removed once answered
      expect(committed).toEqual([`? bash rm -rf build ${verdict}`]);
    }
  });

  it('treats Esc as no and ignores Enter and other keys, so nothing is approved by accident', async () => {
    const { ui } = scriptedUi([{ name: 'return' }, char('x'), { name: 'escape' }]);
    expect(await createApprovalPrompt(ui, plain)(request, new AbortController().signal)).toBe('no');
    const second = scriptedUi([{ name: 'return' }, char('q'), char('y')]);
    expect(await createApprovalPrompt(second.ui, plain)(request, new AbortController().signal)).toBe('yes');
  });

  it('offers "always" only when the policy gives a rule for it', async () => {
    const { always: _always, ...withoutAlways } = request;
    expect(approvalLines(withoutAlways, plain, 10).at(-1)).toBe('  y yes   n no   (Esc or Ctrl-C = no and stop)');
    const { ui } = scriptedUi([char('a'), char('n')]);
    expect(await createApprovalPrompt(ui, plain)(withoutAlways, new AbortController().signal)).toBe('no');
  });

  it('answers no when the run is aborted while it waits (Ctrl-C)', async () => {
    const controller = new AbortController();
    const ui: ApprovalUi = {
      show: () => undefined,
      commit: () => undefined,
      nextKey: (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })),
      maxDetailLines: () => 5,
    };
    const answer = createApprovalPrompt(ui, plain)(request, controller.signal);
    controller.abort();
    expect(await answer).toBe('no');
  });

  it('shows the detail, a diff coloured, folded to the space there is', () => {
    const detail = ['--- a/f', '+++ b/f', '@@ -1 +1 @@', '-old', '+new', ...Array.from({ length: 20 }, (_, i) => ` ctx ${i}`)].join('\n');
    const lines = approvalLines({ ...request, tool: 'edit_file', summary: 'f', detail }, createTheme(true), 6);
    expect(lines.map(stripAnsi).slice(1, 8)).toEqual(['  --- a/f', '  +++ b/f', '  @@ -1 +1 @@', '  -old', '  +new', '   ctx 0', '  … 19 more lines']);
    expect(lines[4]).toContain('\x1b[31m-old');
    expect(lines[5]).toContain('\x1b[32m+new');
  });

  it('is the ask of the permission policy: a denied call reaches the tool result, "always" stops the asking', async () => {
    let runs = 0;
    const tool = defineTool({ name: 'touch', description: 'test', parameters: z.object({ path: z.string() }), execute: async () => `ran ${++runs}` });
    const registry = new ToolRegistry([tool]);
    const keys = [char('n'), char('a')];
    const { ui, shown } = scriptedUi(keys);
    const authorize = createPermissionPolicy({ mode: 'ask', ask: createApprovalPrompt(ui, plain) });
    const call = (id: string) => ({ id, name: 'touch', arguments: '{"path":"x"}' });
    expect(await registry.invoke(call('1'), { authorize })).toMatchObject({ status: 'denied', content: 'Denied: the user declined this call.' });
    expect(await registry.invoke(call('2'), { authorize })).toMatchObject({ status: 'ok', content: 'ran 1' });
    expect(await registry.invoke(call('3'), { authorize })).toMatchObject({ status: 'ok', content: 'ran 2' });
    expect(shown.filter(Boolean)).toHaveLength(2); // asked twice, not three times
  });
});

describe('the one-shot terminal approval', () => {
  it("when stdin is not a terminal (lines are read), answers no on Ctrl-C while the question waits, without reaching the run's own Ctrl-C handler, which is given back after", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const interrupts = new EventEmitter();
    const abortedRuns: string[] = [];
    interrupts.on('SIGINT', () => abortedRuns.push('first handler'));
    interrupts.on('SIGINT', () => abortedRuns.push('second handler'));
    const ask = createTerminalApproval({ input, output, color: false, interrupts });

    const answer = ask(request, new AbortController().signal);
    while (!shown.includes('Allow?')) await new Promise((resolve) => output.once('data', resolve));
    interrupts.emit('SIGINT');
    expect(await answer).toBe('no');
    expect(shown).toContain('Ctrl-C: no');
    expect(abortedRuns).toEqual([]);

    interrupts.emit('SIGINT'); // a Ctrl-C with no question open reaches the run, as before
    expect(abortedRuns).toEqual(['first handler', 'second handler']);
    expect(interrupts.listenerCount('SIGINT')).toBe(2);

    const typed = ask(request, new AbortController().signal); // and the next question still takes typed answers
    while (!shown.endsWith(']: ')) await new Promise((resolve) => output.once('data', resolve));
    input.write('y\n');
    expect(await typed).toBe('yes');
    expect(interrupts.listenerCount('SIGINT')).toBe(2);
  });
});

/**
 * A terminal's input as the approval sees it: a stream whose raw mode is recorded. (The real
 * terminal is driven in tmux by one-shot-approval-keys.test.ts; these are the paths a pty cannot
 * be made to take on demand: a read error, a hang-up.)
 */
function fakeTerminal() {
  const events: string[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      input.isRaw = mode;
      events.push(mode ? 'raw' : 'line');
      return input;
    },
  });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const ask = createTerminalApproval({ input, output, color: false, interrupt: () => events.push(`interrupt (${input.isRaw ? 'raw' : 'line'})`) });
  const asking = async () => {
    while (!shown.trimEnd().endsWith('no and stop the run)')) await new Promise((resolve) => output.once('data', resolve));
  };
  return { input, ask, events, asking, shown: () => shown, reset: () => (shown = '') };
}

describe('the one-shot terminal approval on a terminal (single keys, raw mode)', () => {
  const exitListeners = () => process.listenerCount('exit');

  it("takes the TUI's keys without Enter, and shows its labels", async () => {
    for (const [typed, answer] of [['y', 'yes'], ['N', 'no'], ['a', 'always']] as const) {
      const t = fakeTerminal();
      const before = exitListeners();
      const answered = t.ask(request, new AbortController().signal);
      await t.asking();
      expect(t.shown()).toContain('  y yes   n no   a always allow bash(rm -rf build*) this session   (Esc or Ctrl-C = no and stop the run)');
      expect(t.events).toEqual(['raw']);
      t.input.write(typed);
      expect(await answered).toBe(answer);
      expect(t.events).toEqual(['raw', 'line']);
      expect(exitListeners()).toBe(before);
    }
  });

  it('ignores Enter, other keys and a (when no rule is offered): nothing is approved by accident', async () => {
    const t = fakeTerminal();
    const answered = t.ask({ ...request, always: undefined }, new AbortController().signal);
    await t.asking();
    for (const key of ['\r', 'x', 'a', '\x1b[A', '\x1by']) t.input.write(key);
    t.input.write('y');
    expect(await answered).toBe('yes');
    expect(t.events).toEqual(['raw', 'line']);
  });

  it('a burst answers only the question shown: the rest of the read is dropped, the next question waits', async () => {
    const t = fakeTerminal();
    const first = t.ask(request, new AbortController().signal);
    const second = t.ask({ ...request, summary: 'rm -rf dist' }, new AbortController().signal);
    await t.asking();
    t.reset();
    t.input.write('yyy');
    expect(await first).toBe('yes');
    await t.asking();
    expect(t.shown()).toContain('rm -rf dist');
    t.input.write('n');
    expect(await second).toBe('no');
    expect(t.events).toEqual(['raw', 'line', 'raw', 'line']);
  });

  it.each([
    ['Ctrl-C', '\x03'],
    ['Esc', '\x1b'],
  ])('%s puts the terminal back, then interrupts the run; the call is denied (the same meaning as at the TUI)', async (name, typed) => {
    const t = fakeTerminal();
    const answered = t.ask(request, new AbortController().signal);
    await t.asking();
    t.input.write(typed);
    expect(await answered).toBe('no');
    expect(t.events).toEqual(['raw', 'line', 'interrupt (line)']);
    expect(t.shown()).toContain(`denied (${name}: the run stops)`);
  });

  it('end of input, a read error and an aborted call each deny, with the terminal put back', async () => {
    const ended = fakeTerminal();
    const first = ended.ask(request, new AbortController().signal);
    await ended.asking();
    ended.input.end();
    expect(await first).toBe('no');
    expect(ended.shown()).toContain('no input left: no');
    expect(await ended.ask(request, new AbortController().signal)).toBe('no'); // at once, never left pending
    expect(ended.events).toEqual(['raw', 'line']);

    const failing = fakeTerminal();
    const second = failing.ask(request, new AbortController().signal);
    await failing.asking();
    failing.input.destroy(new Error('EIO'));
    expect(await second).toBe('no');
    expect(failing.shown()).toContain('cannot read the terminal (EIO): no');
    expect(failing.events).toEqual(['raw', 'line']);

    const aborted = fakeTerminal();
    const controller = new AbortController();
    const third = aborted.ask(request, controller.signal);
    await aborted.asking();
    controller.abort();
    expect(await third).toBe('no');
    expect(aborted.events).toEqual(['raw', 'line']);
  });
});
