import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { emptyUsage } from '../src/contracts/messages.js';
import { parseCommandResult } from '../src/cli/display/command-result.js';
import { describeEvent, paintLine, type DisplayLine } from '../src/cli/display/describe-event.js';
import { expandTabs, previewLine } from '../src/cli/display/preview-line.js';
import { createTheme } from '../src/cli/display/theme.js';
import { createTextRenderer } from '../src/cli/commands/run/render-text.js';

const text = (line: DisplayLine | undefined) => line?.map((span) => span.text).join('');
const tones = (line: DisplayLine | undefined) => line?.filter((span) => span.text.trim()).map((span) => span.tone);
const stop = (reason: Extract<AgentEvent, { type: 'stop' }>['reason'], error?: string): AgentEvent => ({ type: 'stop', reason, answer: null, turns: 2, usage: emptyUsage(), ...(error ? { error } : {}) });

describe('describeEvent: one line per event, for every renderer', () => {
  it('says why a run stopped: aborted as a warning with ⊘, the brakes and failures as errors with ✗ and the detail', () => {
    expect(text(describeEvent(stop('aborted')))).toBe('⊘ Aborted. The turn was cancelled; what was done so far is kept.');
    expect(tones(describeEvent(stop('aborted')))).toEqual(['warning']);
    expect(text(describeEvent(stop('turn_limit')))).toBe('✗ Stopped: the turn limit was reached before an answer.');
    expect(text(describeEvent(stop('repeated_call', 'read_file x 3 times')))).toBe('✗ Stopped: the model kept repeating the same call. read_file x 3 times');
    expect(text(describeEvent(stop('provider_error', 'Invalid API key.')))).toBe('✗ Stopped: the provider failed. Invalid API key.');
    expect(text(describeEvent(stop('cost_limit')))).toBe('✗ Stopped: the cost limit was reached.');
    expect(tones(describeEvent(stop('cost_limit')))).toEqual(['error']);
    expect(describeEvent({ type: 'stop', reason: 'answered', answer: 'hi', turns: 1, usage: emptyUsage() })).toBeUndefined();
  });

  it('shows retries in seconds, and says when the partial reply above is discarded', () => {
    const retry: AgentEvent = { type: 'retry', attempt: 2, delayMs: 734, error: 'HTTP 503\n  overloaded' };
    expect(text(describeEvent(retry))).toBe('↻ retry 2 in 0.7 s: HTTP 503 overloaded');
    expect(text(describeEvent(retry, { partialReplyShown: true }))).toBe('↻ retry 2 in 0.7 s: HTTP 503 overloaded (the partial reply above is discarded)');
    expect(tones(describeEvent(retry))).toEqual(['warning']);
  });

  it('shows compaction (summarised or dropped), repairs, warnings, unreadable replies and the hand-off header', () => {
    const compaction = { type: 'compaction', turn: 3, tokensBefore: 9000, tokensAfter: 1200, summary: 's', dropped: 14 } as const;
    expect(text(describeEvent(compaction))).toBe('⇣ context compacted: 9000 → 1200 tokens, 14 messages summarised');
    expect(text(describeEvent({ ...compaction, fallback: 'the summary request failed' }))).toBe('⇣ context compacted: 9000 → 1200 tokens, 14 messages dropped (the summary request failed)');
    expect(tones(describeEvent(compaction))).toEqual(['dim']);
    expect(text(describeEvent({ type: 'history_repaired', turn: 1, repairs: ['a result for call_1', 'id normalised'] }))).toBe('⚕ history repaired before the request: a result for call_1; id normalised');
    expect(text(describeEvent({ type: 'context_warning', turn: 1, message: 'the server truncated the prompt' }))).toBe('⚠ the server truncated the prompt');
    expect(text(describeEvent({ type: 'protocol_error', turn: 1, reason: 'bad_json', error: 'not closed', count: 1 }))).toBe('✗ reply not readable (bad_json): not closed');
    expect(text(describeEvent({ type: 'handoff', text: 'Done: A.' }))).toBe('Turn limit reached. Hand-off from the model:');
  });

  it('shows a call being written, a call, and its result with ✓ ✗ ⊘ and the duration', () => {
    expect(text(describeEvent({ type: 'tool_call_delta', turn: 1, index: 0, id: 'c1', name: 'write_file' }))).toBe('→ write_file …');
    const start = describeEvent({ type: 'tool_call_start', turn: 1, call: { id: 'c1', name: 'calculator', arguments: '{"expression":"17*23"}' } });
    expect(text(start)).toBe('→ calculator expression="17*23"');
    expect(tones(start)).toEqual(['accent', 'bold', 'dim']);
    const end = (status: 'ok' | 'error' | 'denied', durationMs: number) => describeEvent({ type: 'tool_call_end', turn: 1, id: 'c1', name: 'calculator', status, isError: status !== 'ok', output: '391\n', durationMs });
    expect(text(end('ok', 42))).toBe('✓ 391 (42 ms)');
    expect(text(end('error', 1500))).toBe('✗ 391 (1.5 s)');
    expect(text(end('denied', 3))).toBe('⊘ 391 (3 ms)');
    expect(tones(end('denied', 3))).toEqual(['warning', 'dim']);
  });

  it("sums up a command's result by its exit code and the line naming the failure, not its banner", () => {
    const output = '\n> vibe-agent@0.1.0 test\n> vitest run\n\nFAIL test/loop.test.ts\nTests  1 failed | 212 passed\n\nexit code: 1';
    const line = describeEvent({ type: 'tool_call_end', turn: 1, id: 'b', name: 'bash', status: 'error', isError: true, output, durationMs: 2400 });
    expect(text(line)).toBe('✗ exit code: 1 · FAIL test/loop.test.ts (2.4 s)');
    const quiet = describeEvent({ type: 'tool_call_end', turn: 1, id: 'b', name: 'bash', status: 'ok', isError: false, output: 'exit code: 0', durationMs: 5 });
    expect(text(quiet)).toBe('✓ exit code: 0 (5 ms)');
  });

  it('writes out escape sequences and control characters from outside, never sends them', () => {
    const lines = [
      describeEvent(stop('provider_error', 'HTTP 500: \x1b]52;c;eA==\x07')),
      describeEvent({ type: 'retry', attempt: 1, delayMs: 1000, error: 'bad \x1b[2J gateway' }),
      describeEvent({ type: 'context_warning', turn: 1, message: 'x\x1b]0;title\x07' }),
      describeEvent({ type: 'tool_call_start', turn: 1, call: { id: 'c', name: 'evil\x1b[2J', arguments: 'not json \x1b[31m' } }),
      describeEvent({ type: 'tool_call_end', turn: 1, id: 'c', name: 'read_file', status: 'ok', isError: false, output: 'a\r\n\x1b]52;c;Y3VybA==\x07', durationMs: 1 }),
    ];
    for (const line of lines) {
      expect(text(line)).toContain('\\e');
      expect(text(line)).not.toMatch(/[\x00-\x1f\x7f]/);
    }
  });

  it('has nothing to say about streamed text, usage and turn bounds (each renderer streams those its own way)', () => {
    const quiet: AgentEvent[] = [
      { type: 'turn_start', turn: 1 },
      { type: 'text_delta', turn: 1, text: 'x' },
      { type: 'usage', turn: 1, usage: emptyUsage(), total: emptyUsage() },
      { type: 'turn_end', turn: 1, messages: [] },
    ];
    for (const event of quiet) expect(describeEvent(event)).toBeUndefined();
  });

  it('is painted with the one palette: colour on, each tone its colour; off, the text alone', () => {
    const line = describeEvent({ type: 'tool_call_start', turn: 1, call: { id: 'c', name: 'bash', arguments: '{"command":"ls"}' } })!;
    expect(paintLine(line, createTheme(true))).toBe('\x1b[36m→\x1b[39m \x1b[1mbash\x1b[22m \x1b[2mcommand="ls"\x1b[22m');
    expect(paintLine(line, createTheme(false))).toBe('→ bash command="ls"');
  });
});

describe('previews and command results', () => {
  it('keeps the indentation of a line, expands tabs to 4-column stops and cuts to the width', () => {
    expect(previewLine('  return a - b;', 40)).toBe('  return a - b;');
    expect(previewLine('     3\t  return a - b;   ', 40)).toBe('     3    return a - b;');
    expect(expandTabs('\tif (x) {\n')).toBe('    if (x) {\n');
    expect(previewLine(`    ${'x'.repeat(50)}`, 20)).toBe(`    ${'x'.repeat(15)}…`);
  });

  it("parses the bash tool's ending: exit code, kills and the note about dropped output", () => {
    expect(parseCommandResult('a\nb\nexit code: 2\n')).toEqual({ output: ['a', 'b'], ending: 'exit code: 2', succeeded: false });
    expect(parseCommandResult('exit code: 0')).toEqual({ output: [], ending: 'exit code: 0', succeeded: true });
    expect(parseCommandResult('a\n[2000000 characters of output in all]\nkilled: timed out after 1000 ms')).toEqual({ output: ['a'], ending: 'killed: timed out after 1000 ms', succeeded: false });
    expect(parseCommandResult('x\nkilled by signal SIGKILL')?.ending).toBe('killed by signal SIGKILL');
    expect(parseCommandResult('Could not start the shell: ENOENT')).toBeUndefined();
    // A success carries no ending (its flag says it succeeded); a last line that looks like one is output.
    expect(parseCommandResult('all green\n', false)).toEqual({ output: ['all green'], ending: 'exit code: 0', succeeded: true });
    expect(parseCommandResult('echoed\nexit code: 3', false)).toEqual({ output: ['echoed', 'exit code: 3'], ending: 'exit code: 0', succeeded: true });
  });
});

describe('the one-shot renderer writes the same lines', () => {
  it('calls, results indented under them, the retry after a partial answer and the stop; a call still being written adds nothing', () => {
    let out = '';
    let info = '';
    const render = createTextRenderer({ out: { write: (text: string) => (out += text) }, info: { write: (text: string) => (info += text) }, color: false });
    const call = { id: 'b1', name: 'bash', arguments: '{"command":"npm test"}' };
    render({ type: 'tool_call_delta', turn: 1, index: 0, id: 'b1', name: 'bash' });
    expect(info).toBe('');
    render({ type: 'tool_call_start', turn: 1, call });
    render({ type: 'tool_call_end', turn: 1, id: 'b1', name: 'bash', status: 'error', isError: true, output: '> banner\nFAIL one\nexit code: 1', durationMs: 2400 });
    render({ type: 'text_delta', turn: 2, text: 'The tests fa' });
    render({ type: 'retry', attempt: 1, delayMs: 1000, error: 'stream cut' });
    render({ type: 'stop', reason: 'aborted', answer: null, turns: 2, usage: emptyUsage() });
    expect(out).toBe('The tests fa\n');
    expect(info.split('\n')).toEqual([
      '→ bash command="npm test"',
      '  ✗ exit code: 1 · FAIL one (2.4 s)',
      '↻ retry 1 in 1.0 s: stream cut (the partial reply above is discarded)',
      '⊘ Aborted. The turn was cancelled; what was done so far is kept.',
      '',
    ]);
  });
});
