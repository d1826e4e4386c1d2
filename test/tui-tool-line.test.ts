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
      '  │ line 1',
      '  │ line 2',
      '  │ line 3',
      '  │ line 4',
      '  … 6 more lines',
    ]);
    expect(plainText(toolLines({ call, startedAt: 0, end: { status: 'error', output: 'bash failed: boom', durationMs: 1500 } }, 0, t))).toEqual([
      '✗ bash command="npm test" (1.5 s)',
      '  │ bash failed: boom',
    ]);
    const denied = toolLines({ call, startedAt: 0, end: { status: 'denied', output: 'Denied: the user declined this call.', durationMs: 3 } }, 0, t);
    expect(plainText(denied)).toEqual(['⊘ bash command="npm test" (3 ms)', '  │ Denied: the user declined this call.']);
    expect(denied[0]).toContain(t.yellow('⊘'));
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
    expect(committed.slice(2)).toEqual(['✓ bash command="npm test" (1.2 s)', '  │ all green']);
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

  it('shows reasoning dimmed, before the answer', () => {
    const { committed } = play([
      { type: 'reasoning_delta', turn: 1, text: 'thinking about it\nmore' },
      { type: 'text_delta', turn: 1, text: 'Answer\n' },
    ]);
    expect(committed).toEqual(['thinking about it', 'more', 'Answer']);
  });
});
