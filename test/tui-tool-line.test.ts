import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import type { ToolCall } from '../src/contracts/messages.js';
import { emptyUsage } from '../src/contracts/messages.js';
import { stripAnsi } from '../src/cli/display/text-width.js';
import { createTheme } from '../src/cli/display/theme.js';
import { toolHeader, toolLines } from '../src/cli/tui/tool-line.js';
import { TurnView } from '../src/cli/tui/turn-view.js';

const t = createTheme(true);
const plainText = (lines: string[]) => lines.map(stripAnsi);
const call: ToolCall = { id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' };

describe('tool lines', () => {
  it('shows a spinner with the elapsed time while the call runs', () => {
    const line = stripAnsi(toolHeader({ call, startedAt: 1_000 }, 3_400, t));
    expect(line).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] bash command="npm test" 2\.4 s$/);
  });

  it('marks ok, error and denied calls with ✓ ✗ ⊘ and the duration, and folds long results', () => {
    const output = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(plainText(toolLines({ call, startedAt: 0, end: { status: 'ok', output, durationMs: 42 } }, 0, t))).toEqual([
      '✓ bash command="npm test" (42 ms)',
      '  … 6 earlier lines',
      '  │ line 7',
      '  │ line 8',
      '  │ line 9',
      '  │ line 10',
      '  │ exit code: 0',
    ]);
    expect(plainText(toolLines({ call, startedAt: 0, end: { status: 'error', output: 'bash failed: boom', durationMs: 1500 } }, 0, t))).toEqual([
      '✗ bash command="npm test" (1.5 s)',
      '  │ bash failed: boom',
    ]);
    const denied = toolLines({ call, startedAt: 0, end: { status: 'denied', output: 'Denied: the user declined this call.', durationMs: 3 } }, 0, t);
    expect(plainText(denied)).toEqual(['⊘ bash command="npm test" (3 ms)', '  │ Denied: the user declined this call.']);
    expect(denied[0]).toContain(t.yellow('⊘'));
  });

  it("shows a command's last lines and its exit code, not the banner npm prints first", () => {
    const banner = ['', '> vibe-agent@0.1.0 test', '> vitest run', '', ' RUN  v4.1.12 /work'];
    const output = [...banner, 'FAIL test/loop.test.ts > stops at the turn limit', '    expected 3 to be 4', 'Tests  1 failed | 212 passed', 'npm ERR! Test failed.', 'exit code: 1'].join('\n');
    const lines = toolLines({ call, startedAt: 0, end: { status: 'error', output, durationMs: 2400 } }, 0, t);
    expect(plainText(lines)).toEqual([
      '✗ bash command="npm test" (2.4 s)',
      '  … 5 earlier lines',
      '  │ FAIL test/loop.test.ts > stops at the turn limit',
      '  │     expected 3 to be 4',
      '  │ Tests  1 failed | 212 passed',
      '  │ npm ERR! Test failed.',
      '  │ exit code: 1',
    ]);
    expect(lines.at(-1)).toContain(t.red('exit code: 1'));
    // A success's result has no ending (the flag says it): the line shows one all the same.
    const passed = toolLines({ call, startedAt: 0, end: { status: 'ok', output: 'all green\n', durationMs: 900 } }, 0, t);
    expect(plainText(passed)).toEqual(['✓ bash command="npm test" (900 ms)', '  │ all green', '  │ exit code: 0']);
    expect(passed.at(-1)).toContain(t.dim('exit code: 0'));
    const echoed = toolLines({ call, startedAt: 0, end: { status: 'ok', output: 'exit code: 3', durationMs: 900 } }, 0, t);
    expect(plainText(echoed)).toEqual(['✓ bash command="npm test" (900 ms)', '  │ exit code: 3', '  │ exit code: 0']);
  });

  it("keeps a result's indentation (a read_file of code shows as the code is laid out)", () => {
    const read: ToolCall = { id: 'r', name: 'read_file', arguments: '{"path":"sub.ts"}' };
    const output = '     1\texport function sub(a: number, b: number) {\n     2\t  return a - b;\n     3\t}';
    expect(plainText(toolLines({ call: read, startedAt: 0, end: { status: 'ok', output, durationMs: 1 } }, 0, t)).slice(1)).toEqual([
      '  │      1  export function sub(a: number, b: number) {',
      '  │      2    return a - b;',
      '  │      3  }',
    ]);
  });

  it('colours a unified diff in a result: additions green, removals red, hunks cyan', () => {
    const diff = '--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n unchanged';
    const lines = toolLines({ call: { id: 'e', name: 'edit_file', arguments: '{"path":"x.ts"}' }, startedAt: 0, end: { status: 'ok', output: diff, durationMs: 5 } }, 0, t);
    expect(lines).toContain(`  ${t.dim('│')} ${t.red('-const a = 1;')}`);
    expect(lines).toContain(`  ${t.dim('│')} ${t.green('+const a = 2;')}`);
    expect(lines).toContain(`  ${t.dim('│')} ${t.cyan('@@ -1,2 +1,2 @@')}`);
  });
});

describe('TurnView, from an event sequence', () => {
  function play(events: AgentEvent[], clock = { now: 0 }) {
    const committed: string[] = [];
    const view = new TurnView((lines) => committed.push(...lines), createTheme(false), () => clock.now);
    for (const event of events) view.handle(event, 80);
    return { committed, view };
  }
  const usage = emptyUsage();

  it('commits finished Markdown lines and tool lines in order; the partial line stays live', () => {
    const clock = { now: 0 };
    const { committed, view } = play(
      [
        { type: 'turn_start', turn: 1 },
        { type: 'text_delta', turn: 1, text: 'Let me **check**.\nRunning' },
      ],
      clock,
    );
    expect(committed).toEqual(['Let me check.']);
    expect(view.live(80)).toEqual(['Running']);
    clock.now = 100;
    view.handle({ type: 'assistant_message', turn: 1, message: { role: 'assistant', content: 'Let me **check**.\nRunning', toolCalls: [call] }, finishReason: 'tool_calls' });
    view.handle({ type: 'tool_call_start', turn: 1, call });
    expect(committed).toEqual(['Let me check.', 'Running']);
    clock.now = 1_300;
    expect(view.live(80)[0]).toMatch(/bash command="npm test" 1\.2 s$/);
    view.handle({ type: 'tool_call_end', turn: 1, id: 'c1', name: 'bash', status: 'ok', isError: false, output: 'all green', durationMs: 1200 });
    expect(committed.slice(2)).toEqual(['✓ bash command="npm test" (1.2 s)', '  │ all green', '  │ exit code: 0']);
    expect(view.live(80)[0]).toMatch(/Working… 0 ms/);
  });

  it('says the turn was aborted, with ⊘, and leaves nothing live', () => {
    const { committed, view } = play([
      { type: 'turn_start', turn: 1 },
      { type: 'text_delta', turn: 1, text: 'Once upon a ti' },
      { type: 'stop', reason: 'aborted', answer: null, turns: 1, usage },
    ]);
    expect(committed).toEqual(['Once upon a ti', '⊘ Aborted. The turn was cancelled; what was done so far is kept.']);
    expect(view.live(80)).toEqual([]);
  });

  it('shows retries, provider errors and the hand-off at the turn limit', () => {
    const { committed } = play([
      { type: 'retry', attempt: 1, delayMs: 1500, error: 'HTTP 503 overloaded' },
      { type: 'handoff', text: 'Done: A. Left: B.' },
      { type: 'stop', reason: 'turn_limit', answer: null, turns: 3, usage },
    ]);
    expect(committed).toEqual(['↻ retry 1 in 1.5 s: HTTP 503 overloaded', 'Turn limit reached. Hand-off from the model:', 'Done: A. Left: B.', '✗ Stopped: the turn limit was reached before an answer.']);
    expect(play([{ type: 'stop', reason: 'provider_error', answer: null, turns: 1, usage, error: 'Invalid API key.' }]).committed).toEqual(['✗ Stopped: the provider failed. Invalid API key.']);
  });

  it('ends the partial text of a reply that broke off before the retry, and says it is discarded', () => {
    const { committed, view } = play([
      { type: 'turn_start', turn: 1 },
      { type: 'text_delta', turn: 1, text: 'The first try got as far as' },
      { type: 'retry', attempt: 1, delayMs: 1000, error: 'the stream stalled' },
      { type: 'text_delta', turn: 1, text: 'The whole answer.' },
    ]);
    expect(committed).toEqual(['The first try got as far as', '↻ retry 1 in 1.0 s: the stream stalled (the partial reply above is discarded)']);
    expect(view.live(80)).toEqual(['The whole answer.']);
  });

  it('shows a call while its arguments stream ("→ write_file …"), until it starts running', () => {
    const clock = { now: 0 };
    const write: ToolCall = { id: 'w1', name: 'write_file', arguments: '{"path":"big.txt","content":"…"}' };
    const { committed, view } = play(
      [
        { type: 'turn_start', turn: 1 },
        { type: 'text_delta', turn: 1, text: 'Writing it now.' },
        { type: 'tool_call_delta', turn: 1, index: 0, id: 'w1', name: 'write_file' },
      ],
      clock,
    );
    expect(committed).toEqual(['Writing it now.']); // the text before the call is finished
    clock.now = 2_500;
    view.handle({ type: 'tool_call_delta', turn: 1, index: 0, id: 'w1', name: 'write_file' });
    expect(view.live(80)).toEqual(['→ write_file … 2.5 s']); // no "Working…" spinner as well
    view.handle({ type: 'assistant_message', turn: 1, message: { role: 'assistant', content: 'Writing it now.', toolCalls: [write] }, finishReason: 'tool_calls' });
    view.handle({ type: 'tool_call_start', turn: 1, call: write });
    expect(view.live(80)).toHaveLength(1);
    expect(view.live(80)[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] write_file path="big.txt" content="…" 0 ms$/);
  });

  it('drops the pending call of a reply that broke off, and at the stop', () => {
    const delta: AgentEvent = { type: 'tool_call_delta', turn: 1, index: 0, id: 'w1', name: 'write_file' };
    expect(play([delta, { type: 'retry', attempt: 1, delayMs: 1000, error: 'cut' }]).view.live(80)).not.toContainEqual(expect.stringContaining('write_file'));
    expect(play([delta, { type: 'stop', reason: 'aborted', answer: null, turns: 1, usage }]).view.live(80)).toEqual([]);
  });

  it('shows reasoning dimmed, before the answer', () => {
    const { committed } = play([
      { type: 'reasoning_delta', turn: 1, text: 'thinking about it\nmore' },
      { type: 'text_delta', turn: 1, text: 'Answer\n' },
    ]);
    expect(committed).toEqual(['thinking about it', 'more', 'Answer']);
  });
});
