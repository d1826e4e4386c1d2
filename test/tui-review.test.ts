/**
 * Regressions found by reviewing the interactive UI: text from outside (tool output, model
 * answers, pasted input) must not be able to drive the terminal, long paragraphs must stream in
 * bounded time and bytes, and /clear must not leave the cleared conversation to be resumed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emptyUsage } from '../src/contracts/messages.js';
import { ConversationState } from '../src/cli/tui/conversation-state.js';
import { InputEditor } from '../src/cli/tui/input-editor.js';
import { InteractiveSession } from '../src/cli/tui/interactive.js';
import { LiveScreen } from '../src/cli/tui/live-screen.js';
import { MarkdownStream, renderInline } from '../src/cli/tui/markdown-stream.js';
import { sanitizeLine } from '../src/cli/display/sanitize.js';
import { runSlashCommand, type CommandContext } from '../src/cli/tui/slash-commands.js';
import { stripAnsi, visibleWidth, wrapLine } from '../src/cli/display/text-width.js';
import { createTheme } from '../src/cli/display/theme.js';
import { TurnView } from '../src/cli/tui/turn-view.js';
import type { Provider } from '../src/contracts/provider.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { VirtualTerminal } from './support/virtual-terminal.js';
import { testServices } from './support/tui-services.js';
import { FakeInput } from './support/fake-input.js';

const color = createTheme(true);
const plain = createTheme(false);
/** Anything but SGR: cursor moves, erases, OSC/DCS strings, bare controls. */
const NON_SGR = /\x1b(?!\[[0-9;:]*m)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]/;

const HOSTILE = 'red \x1b[31mRED\x1b[0m\n\x1b[2J\x1b[Hcleared?\rover\n\ttab\x07bell\n\x1b]0;TITLE\x07after osc\n\x1bcreset \x9b2J';

describe('text from outside cannot drive the terminal', () => {
  it('sanitizeLine keeps colours and removes cursor moves, clears, titles, controls; tabs become spaces', () => {
    expect(sanitizeLine('a\x1b[31mb\x1b[0mc')).toBe('a\x1b[31mb\x1b[0mc');
    expect(sanitizeLine('x\x1b[2J\x1b[10;1Hy\x1b[?25lz')).toBe('xyz');
    expect(sanitizeLine('\x1b]0;TITLE\x07t \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).toBe('t link');
    expect(sanitizeLine('\x1bPq#0;2;0;0;0\x1b\\sixel gone')).toBe('sixel gone');
    expect(sanitizeLine('50%\r100%\x07\x08\x00 \x9b2J \x1bc')).toBe('50%100% 2J ');
    expect(sanitizeLine('\tindented')).toBe('    indented');
    expect(sanitizeLine('cut \x1b]0;unterminated title')).toBe('cut ');
    expect(sanitizeLine('a\x1b[31mb\x1b[0mc', false)).toBe('abc'); // NO_COLOR: a tool's colours go too
  });

  it('a tool result and an answer full of escape sequences reach the screen as plain text', async () => {
    const terminal = new VirtualTerminal(80, 24);
    const input = new FakeInput();
    const tools = new ToolRegistry([
      defineTool({ name: 'hostile', description: 'x', parameters: z.object({}), readOnly: true, execute: async () => HOSTILE }),
    ]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'hostile', arguments: {} }] },
      { text: `Answer \x1b[2J\x1b]0;PWNED\x07with escapes.\n\`\`\`\n\tcode\x1b[1A\n\`\`\`\nthe-end-marker` },
    ]);
    const services = await testServices(provider, { tools, system: 's', workspace: '/tmp' });
    const session = new InteractiveSession({ input, output: terminal.output, theme: plain, services, providerName: provider.name, model: 'm', tools, workspace: '/tmp', maxTurns: 5 });
    const exited = session.run();
    input.type('go\r');
    const screen = await terminal.waitFor((s) => s.includes('the-end-marker') && !/working/.test(s.split('\n').at(-1)!));
    expect(screen).toContain('› go'); // nothing cleared the screen above
    // Two layers: tool results and replies have their escapes written out (\e[2J shows as text),
    // and whatever reaches the screen is sanitized again, so nothing in the payload is obeyed.
    expect(screen).toMatch(/│ red .*RED/);
    expect(screen).toMatch(/Answer .*with escapes\./);
    expect(screen).toContain('code');
    // Escapes written: our own cursor moves and erases in the frame, never the payload's.
    const payload = terminal.raw.replace(/\x1b\[\?2026[hl]|\x1b\[\?25[hl]|\x1b\[\?2004[hl]|\x1b\[\d*[ABCJ]|\r\n?|\n/g, '');
    expect(payload).not.toMatch(NON_SGR);
    expect(terminal.raw).not.toMatch(/\x1b\]/); // no OSC sequence (window title, clipboard) was sent
    expect(terminal.raw).not.toMatch(/\x1b\[(?!0m)[0-9;]*m/); // colour is off in this session: the tool's red is gone too
    input.type('\x04');
    expect(await exited).toBe(0);
  });

  it('a committed line holding newlines becomes several rows, so the live area is redrawn in the right place', () => {
    const terminal = new VirtualTerminal(40, 10);
    const screen = new LiveScreen(terminal.output);
    screen.render(['live row']);
    screen.commit(['/resume failed: no such session.\nList them with:\nvibe-agent sessions']);
    screen.render(['live row']);
    expect(terminal.screen().split('\n')).toEqual(['/resume failed: no such session.', 'List them with:', 'vibe-agent sessions', 'live row']);
  });

  it('a paste keeps its newlines and tabs but loses escape sequences; the cursor counts a tab as its spaces', () => {
    const editor = new InputEditor();
    editor.handle({ name: 'paste', text: 'a\x1b[31m\tb\x07\r\nc' });
    expect(editor.text).toBe('a\tb\nc');
    editor.handle({ name: 'up' });
    const layout = editor.layout(40, '› ', 2);
    expect(layout.rows).toEqual(['› a    b', '  c']);
    expect(layout.cursor).toEqual({ row: 0, col: 3 });
  });
});

describe('long streamed paragraphs', () => {
  it('wrapping a long styled line carries only the styles still open, not every span seen so far', () => {
    const line = renderInline('plain and **bold** and `code` words. '.repeat(200), color);
    const rows = wrapLine(line, 60);
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) expect(row.length).toBeLessThan(60 + 60); // visible text plus a few spans of escapes
    expect(rows.map(stripAnsi).join(' ').trimEnd()).toBe(stripAnsi(line).trimEnd());
    // A row that starts inside a bold span re-opens bold, and only bold.
    const inside = wrapLine(color.bold('word '.repeat(30)), 40);
    expect(inside[1]!.startsWith('\x1b[1mword')).toBe(true);
  });

  it('the partial line of a long paragraph is rendered from its tail only', () => {
    const stream = new MarkdownStream(plain);
    stream.push('word '.repeat(20_000));
    const tail = stream.partial(1000)!;
    expect(tail.length).toBeLessThanOrEqual(1000);
    expect(tail.startsWith('word')).toBe(true);
    expect(stream.partial()!.length).toBe(100_000);
  });

  it('TurnView shows at most a screenful of a long partial line; the committed paragraph is whole', () => {
    const committed: string[] = [];
    const view = new TurnView((lines) => committed.push(...lines), plain);
    view.handle({ type: 'text_delta', turn: 1, text: 'word '.repeat(20_000) });
    const live = view.live(80, 24);
    expect(visibleWidth(live[0]!)).toBeLessThanOrEqual(80 * 24);
    view.handle({ type: 'stop', reason: 'answered', answer: '', turns: 1, usage: emptyUsage() });
    expect(committed.join('').length).toBe('word '.repeat(20_000).trimEnd().length + 1);
  });

  it('the same holds for a long paragraph of reasoning', () => {
    const view = new TurnView(() => undefined, plain);
    view.handle({ type: 'reasoning_delta', turn: 1, text: 'thinking '.repeat(20_000) });
    expect(visibleWidth(view.live(80, 24)[0]!)).toBeLessThanOrEqual(80 * 24);
  });
});

describe('/clear and /sessions', () => {
  it('/clear tells the services, so the session store starts a new session; /sessions prints one row per session', async () => {
    const calls: string[] = [];
    const printed: string[] = [];
    const services = await testServices(new ScriptedProvider([]), {}, { clear: async () => void calls.push('clear') });
    const context: CommandContext = {
      theme: plain,
      services,
      model: 'm',
      messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'old' }],
      usage: emptyUsage(),
      cost: undefined,
      tools: [],
      print: (lines) => printed.push(...lines),
      setModel: () => undefined,
      setMessages: (messages) => calls.push(`messages:${messages.length}`),
      startOver: () => calls.push('start over'),
      background: () => undefined,
      detach: () => undefined,
      carry: () => undefined,
      exit: () => undefined,
      togglePlan: () => '',
      init: () => undefined,
      choose: async () => undefined,
      confirm: async () => false,
      goal: () => undefined,
      signal: new AbortController().signal,
    };
    await runSlashCommand('/clear', context);
    expect(calls).toEqual(['clear', 'start over']);
    expect(printed).toEqual(['Conversation cleared.']);

    printed.length = 0;
    const title = `fix the parser\n${'and then a very long pasted stack trace '.repeat(20)}`;
    await runSlashCommand('/sessions', { ...context, services: { ...services, listSessions: async () => [{ id: 's1', title, detail: '2 turns' }] } });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^ {2}s1 {2}fix the parser and then a very long pasted stack trace .{0,30}… {2}2 turns$/);
  });
});

describe('the session cost', () => {
  it('sums the cost the core recorded on each request (priced at the model it went to): a /model switch does not reprice what was spent', () => {
    const state = new ConversationState('big', [], { cost: (model) => (model === 'big' ? 0 : undefined) });
    expect(state.cost()).toBe(0);
    state.track({ type: 'usage', turn: 1, usage: { ...emptyUsage(), inputTokens: 100_000 }, total: emptyUsage(), cost: 1 });
    expect(state.cost()).toBeCloseTo(1);
    state.model = 'small';
    expect(state.cost()).toBeCloseTo(1);
    state.track({ type: 'usage', turn: 1, usage: { ...emptyUsage(), inputTokens: 100_000 }, total: emptyUsage(), cost: 0.1 });
    expect(state.cost()).toBeCloseTo(1.1);
    state.model = 'unpriced';
    state.track({ type: 'usage', turn: 1, usage: { ...emptyUsage(), inputTokens: 1 }, total: emptyUsage() });
    expect(state.cost()).toBeUndefined(); // part of it cannot be priced: no number rather than a wrong one
  });
});

describe('wide characters', () => {
  it('counts the emoji models use most (🚀 ✅ ❌ ⭐ 🟢 🪄) as two columns, as terminals draw them', () => {
    for (const emoji of ['🚀', '✅', '❌', '⭐', '🟢', '🪄', '⚡', '😀', '中']) expect(visibleWidth(emoji), emoji).toBe(2);
    for (const narrow of ['a', '→', '✓', '✗', '•', '│', '⠋']) expect(visibleWidth(narrow), narrow).toBe(1);
    const editor = new InputEditor();
    editor.handle({ name: 'paste', text: '🚀✅ go' });
    expect(editor.layout(40, '› ', 2).cursor).toEqual({ row: 0, col: 2 + 4 + 3 });
  });
});

describe('/compact cancelled', () => {
  it('Ctrl-C during the summary request says it was cancelled, not that there was nothing to compact', async () => {
    const terminal = new VirtualTerminal(80, 24);
    const input = new FakeInput();
    let started!: () => void;
    const summarising = new Promise<void>((resolve) => (started = resolve));
    const services = await testServices(new ScriptedProvider([]), { system: 's', workspace: '/tmp' }, {
      // Like the context policy: an aborted summary leaves the history as it was.
      compact: (messages, { signal }) => new Promise((resolve) => {
        started();
        signal.addEventListener('abort', () => resolve({ messages, compacted: false }), { once: true });
      }),
    });
    const session = new InteractiveSession({ input, output: terminal.output, theme: plain, services, providerName: 'scripted', model: 'm', tools: new ToolRegistry(), workspace: '/tmp', maxTurns: 5 });
    const exited = session.run();
    input.type('/compact\r');
    await summarising;
    input.type('\x03');
    await terminal.waitFor((screen) => screen.includes('/compact cancelled; the conversation is unchanged.') && !/working/.test(screen.split('\n').at(-1)!));
    expect(terminal.screen()).not.toContain('Nothing old enough');
    input.type('\x04');
    expect(await exited).toBe(0);
  });
});

describe('a retry after part of a reply streamed', () => {
  it('ends the cut-off text on its own line; the new attempt does not continue it', async () => {
    const terminal = new VirtualTerminal(80, 24);
    const input = new FakeInput();
    let attempt = 0;
    const provider: Provider = {
      name: 'flaky',
      async *stream() {
        attempt++;
        if (attempt === 1) {
          yield { type: 'text_delta', text: 'Partial words before the cut' };
          throw new ProviderError('stream_cut', 'the stream was cut');
        }
        yield { type: 'text_delta', text: 'Fresh answer.' };
        yield { type: 'response', response: { message: { role: 'assistant', content: 'Fresh answer.', toolCalls: [] }, finishReason: 'stop' } };
      },
    };
    const services = await testServices(provider, { system: 's', workspace: '/tmp' });
    const session = new InteractiveSession({ input, output: terminal.output, theme: plain, services, providerName: provider.name, model: 'm', tools: new ToolRegistry(), workspace: '/tmp', maxTurns: 5 });
    const exited = session.run();
    input.type('go\r');
    const screen = await terminal.waitFor((s) => s.includes('Fresh answer.') && !/working/.test(s.split('\n').at(-1)!));
    const rows = screen.split('\n');
    const partial = rows.findIndex((row) => row === 'Partial words before the cut');
    expect(partial).toBeGreaterThan(0);
    expect(rows[partial + 1]).toMatch(/^↻ retry 1 in .*: the stream was cut \(the partial reply above is discarded\)$/);
    expect(rows[partial + 2]).toBe('Fresh answer.');
    input.type('\x04');
    expect(await exited).toBe(0);
  });
});
