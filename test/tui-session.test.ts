import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InteractiveSession, type InteractiveOptions } from '../src/cli/tui/interactive.js';
import type { InteractiveServices } from '../src/cli/tui/services.js';
import { createTheme } from '../src/cli/display/theme.js';
import type { ModelRequest, Provider, ProviderEvent } from '../src/contracts/provider.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { ScriptedProvider, type ScriptStep } from '../src/providers/scripted.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { VirtualTerminal } from './support/virtual-terminal.js';
import { testServices } from './support/tui-services.js';
import { FakeInput } from './support/fake-input.js';

async function start(provider: Provider, options: Partial<Omit<InteractiveOptions, 'services'>> & { columns?: number; services?: Partial<InteractiveServices> } = {}) {
  const terminal = new VirtualTerminal(options.columns ?? 80, 24);
  const input = new FakeInput();
  const { services, columns: _columns, ...rest } = options;
  const tools = options.tools ?? new ToolRegistry();
  const session = new InteractiveSession({
    input,
    output: terminal.output,
    theme: createTheme(false),
    services: await testServices(provider, { tools }, services),
    providerName: provider.name,
    model: 'test-model',
    tools,
    workspace: '/tmp/project',
    maxTurns: 5,
    ...rest,
  });
  const exited = session.run();
  return { terminal, input, exited };
}

const scripted = (...steps: ScriptStep[]) => new ScriptedProvider(steps);

/** A reply that streams `text`, then hangs until its request is aborted, as a slow model's does. */
async function* textUntilAborted(text: string, signal: AbortSignal | undefined, onStreaming = () => {}): AsyncGenerator<ProviderEvent> {
  yield { type: 'text_delta', text };
  onStreaming();
  await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
  throw new ProviderError('aborted', 'Request aborted.');
}
const hangingAfter = (text: string, onStreaming?: () => void): Provider => ({ name: 'hanging', stream: (_request, signal) => textUntilAborted(text, signal, onStreaming) });
/** The status line says "working" while a turn runs. */
const idle = (screen: string) => !/· working\b/.test(screen.split('\n').at(-1) ?? '');

describe('the interactive session (in-process, virtual terminal)', () => {
  it('runs one runAgent per turn and passes the conversation so far', async () => {
    const provider = scripted({ text: 'first answer' }, { text: 'second answer' });
    const { terminal, input, exited } = await start(provider);
    await terminal.waitFor('/help for commands');
    input.type('hello\r');
    await terminal.waitFor('first answer');
    input.type('again\r');
    await terminal.waitFor((s) => s.includes('second answer') && idle(s));
    expect(provider.requests[1]!.messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      'system:You are a test.',
      'user:hello',
      'assistant:first answer',
      'user:again',
    ]);
    input.type('\x04'); // Ctrl-D on an empty prompt
    expect(await exited).toBe(0);
    expect(input.raw).toBe(false);
  });

  it('answers the commands from its services, and knows the others', async () => {
    const tools = new ToolRegistry([defineTool({ name: 'noop', description: 'x', parameters: z.object({}), readOnly: true, execute: async () => '' })]);
    const { terminal, input, exited } = await start(scripted(), { tools });
    for (const command of ['/compact', '/sessions', '/resume abc', '/memory']) input.type(`${command}\r`);
    await terminal.waitFor('No memory files (AGENTS.md) found.');
    const screen = terminal.screen();
    expect(screen).toContain('Nothing old enough to compact yet.');
    expect(screen).toContain('No saved sessions.');
    expect(screen).toContain('/resume failed: no saved sessions here.');
    input.type('/tools\r/cost\r/nope\r');
    await terminal.waitFor('Unknown command /nope');
    expect(terminal.screen()).toContain('Tools: noop');
    expect(terminal.screen()).toContain('Tokens: 0 in (0 read from cache, 0 written to it), 0 out (0 reasoning).');
    input.type('/help\r');
    await terminal.waitFor('/goal [CONDITION | clear]');
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });

  it('uses the services when given: /compact replaces the history, /resume loads a session, /model switches', async () => {
    const provider = scripted({ text: 'one' }, { text: 'two' });
    const services: Partial<InteractiveServices> = {
      compact: async (messages) => ({ messages: [messages[0]!, { role: 'user', content: '[summary of earlier turns]' }], compacted: true, tokensBefore: 5000, tokensAfter: 800 }),
      listSessions: async () => [{ id: 's1', title: 'earlier work', detail: '4 turns' }],
      resume: async (id) => ({ id, messages: [{ role: 'system', content: 'You are a test.' }, { role: 'user', content: 'resumed question' }, { role: 'assistant', content: 'resumed answer', toolCalls: [] }] }),
      contextWindow: () => 10_000,
    };
    const { terminal, input, exited } = await start(provider, { services });
    input.type('hi\r');
    await terminal.waitFor('one');
    input.type('/compact\r');
    await terminal.waitFor('Compacted: 5.0k → 800 tokens.');
    input.type('/model other-model\r');
    await terminal.waitFor('Model switched to other-model.');
    input.type('next\r');
    await terminal.waitFor((s) => s.includes('two') && idle(s));
    expect(provider.requests[1]!.model).toBe('other-model');
    expect(provider.requests[1]!.messages.map((m) => m.content)).toEqual(['You are a test.', '[summary of earlier turns]', 'next']);
    expect(terminal.screen().split('\n').at(-1)).toBe('other-model · 0 tok · ctx 0% · turn 1/5');
    input.type('/sessions\r');
    await terminal.waitFor('s1  earlier work  4 turns');
    input.type('/resume s1\r');
    await terminal.waitFor('Resumed session s1 (3 messages).');
    input.type('/clear\r');
    await terminal.waitFor((s) => s.includes('Conversation cleared.') && idle(s));
    input.type('\x03'); // Ctrl-C at an empty prompt asks first
    await terminal.waitFor('Press Ctrl-C again to exit');
    input.type('\x03');
    expect(await exited).toBe(0);
  });

  it('Ctrl-C cancels the running turn (the prompt comes back); a second Ctrl-C soon after exits', async () => {
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    const { terminal, input, exited } = await start(hangingAfter('partial answ', started), { doubleInterruptMs: 60_000 });
    input.type('write a story\r');
    await streaming;
    await terminal.waitFor('partial answ');
    input.type('\x03');
    await terminal.waitFor('⊘ Aborted.');
    expect(terminal.screen()).toMatch(/\n› *\n[^\n]*test-model/);
    input.type('more\r');
    await terminal.waitFor((s) => (s.match(/partial answ/g) ?? []).length === 2);
    input.type('\x03');
    input.type('\x03'); // within the double-press window: leave
    expect(await exited).toBe(0);
  });

  it('Esc stops the running turn as Ctrl-C does, and never exits', async () => {
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    let ended = false;
    const { terminal, input, exited } = await start(hangingAfter('partial answ', started), { doubleInterruptMs: 60_000 });
    void exited.then(() => (ended = true));
    input.type('write a story\r');
    await streaming;
    await terminal.waitFor('partial answ');
    input.type('\x1b');
    await terminal.waitFor('⊘ Aborted.');
    input.type('still here\r');
    await terminal.waitFor((s) => (s.match(/partial answ/g) ?? []).length === 2);
    expect(ended).toBe(false);
    input.type('\x03');
    input.type('\x03');
    expect(await exited).toBe(0);
  });

  it('Ctrl-C with text at the prompt clears it; at an empty prompt it asks for a second press, which any other key takes back', async () => {
    let ended = false;
    const { terminal, input, exited } = await start(scripted(), { doubleInterruptMs: 0 });
    void exited.then(() => (ended = true));
    input.type('half a thought');
    await terminal.waitFor('› half a thought');
    input.type('\x03');
    await terminal.waitFor((s) => !s.includes('half a thought'));
    input.type('\x03');
    await terminal.waitFor('Press Ctrl-C again to exit');
    input.type('x'); // changed their mind: the question goes, and the next Ctrl-C asks again
    await terminal.waitFor((s) => s.includes('› x') && !s.includes('Press Ctrl-C again'));
    input.type('\x7f\x03');
    await terminal.waitFor('Press Ctrl-C again to exit');
    expect(ended).toBe(false);
    input.type('\x03');
    expect(await exited).toBe(0);
  });

  it('asks in the UI before a call that needs approval; n denies it, the model sees why and goes on', async () => {
    let ran = false;
    const tools = new ToolRegistry([
      defineTool({ name: 'deploy', description: 'x', parameters: z.object({ env: z.string() }), execute: async () => ((ran = true), 'deployed'), preview: async ({ env }) => ({ summary: `deploy to ${env}` }) }),
    ]);
    const provider = scripted({ toolCalls: [{ name: 'deploy', arguments: { env: 'prod' } }] }, { text: 'Understood, not deploying.' });
    const { terminal, input, exited } = await start(provider, { tools });
    input.type('ship it\r');
    await terminal.waitFor('Allow deploy? deploy to prod');
    expect(terminal.screen()).toContain('approval');
    input.type('n');
    await terminal.waitFor('Understood, not deploying.');
    expect(ran).toBe(false);
    expect(terminal.screen()).toContain('⊘ deploy env="prod"');
    expect(provider.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Denied: the user declined this call.', isError: true });
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });

  it.each([
    ['Esc', '\x1b'],
    ['Ctrl-C', '\x03'],
  ])('%s at an approval denies the call and stops the turn: the call never runs and the model is not asked again', async (_name, answer) => {
    let ran = false;
    const tools = new ToolRegistry([
      defineTool({ name: 'deploy', description: 'x', parameters: z.object({ env: z.string() }), execute: async () => ((ran = true), 'deployed'), preview: async ({ env }) => ({ summary: `deploy to ${env}` }) }),
    ]);
    const provider = scripted({ toolCalls: [{ name: 'deploy', arguments: { env: 'prod' } }] }, { text: 'never asked for' });
    const { terminal, input, exited } = await start(provider, { tools });
    input.type('ship it\r');
    await terminal.waitFor('Allow deploy? deploy to prod');
    input.type(answer);
    const screen = await terminal.waitFor((s) => s.includes('⊘ Aborted.') && idle(s));
    expect(ran).toBe(false);
    expect(screen).toContain('? deploy deploy to prod denied · the turn stops');
    expect(provider.requests).toHaveLength(1);
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });

  it('Ctrl-C at an approval denies that call and stops the turn (no further request); a second Ctrl-C soon after exits', async () => {
    const requests: ModelRequest[] = [];
    const tools = new ToolRegistry([defineTool({ name: 'deploy', description: 'x', parameters: z.object({}), execute: async () => 'deployed', preview: async () => ({ summary: 'deploy' }) })]);
    const provider: Provider = {
      name: 'asks-once',
      async *stream(request: ModelRequest): AsyncGenerator<ProviderEvent> {
        requests.push(request);
        yield { type: 'response', response: { message: { role: 'assistant', content: '', toolCalls: [{ id: 'd1', name: 'deploy', arguments: '{}' }] }, finishReason: 'tool_calls' } };
      },
    };
    const { terminal, input, exited } = await start(provider, { tools, doubleInterruptMs: 60_000 });
    input.type('ship it\r');
    await terminal.waitFor('Allow deploy? deploy');
    input.type('\x03');
    const stopped = await terminal.waitFor((s) => s.includes('⊘ Aborted.') && idle(s));
    expect(stopped).toContain('? deploy deploy denied · the turn stops');
    expect(requests).toHaveLength(1); // the model was not asked again
    input.type('\x03'); // the second Ctrl-C, soon after the first
    expect(await exited).toBe(0);
  });

  it('Esc at an approval denies and stops the turn; what was typed meanwhile comes back to the prompt, unsent', async () => {
    const requests: ModelRequest[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tools = new ToolRegistry([defineTool({ name: 'deploy', description: 'x', parameters: z.object({}), execute: async () => 'deployed', preview: async () => ({ summary: 'deploy' }) })]);
    const provider: Provider = {
      name: 'asks-when-released',
      async *stream(request: ModelRequest): AsyncGenerator<ProviderEvent> {
        requests.push(request);
        await held;
        yield { type: 'response', response: { message: { role: 'assistant', content: '', toolCalls: [{ id: 'd1', name: 'deploy', arguments: '{}' }] }, finishReason: 'tool_calls' } };
      },
    };
    const { terminal, input, exited } = await start(provider, { tools });
    input.type('ship it\r');
    await terminal.waitFor('Working…');
    input.type('then tell me the version\r'); // sent while the turn runs: queued
    input.type('and the date'); // still being typed
    await terminal.waitFor('1 queued');
    release();
    await terminal.waitFor('Allow deploy? deploy');
    input.type('\x1b');
    const screen = await terminal.waitFor((s) => s.includes('⊘ Aborted.') && idle(s));
    expect(screen).toContain('? deploy deploy denied · the turn stops');
    expect(screen).not.toContain('queued');
    const prompt = screen.split('\n').slice(-3, -1);
    expect(prompt).toEqual(['› then tell me the version', '  and the date']);
    expect(requests).toHaveLength(1); // neither the model nor the queued prompt was sent
    input.type('\x03'); // clears the prompt
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });

  it("counts an aborted turn's request in the status line (estimated), and /clear counts from zero again", async () => {
    const { terminal, input, exited } = await start(hangingAfter('partial answ'));
    input.type('write a story\r');
    await terminal.waitFor('partial answ');
    input.type('\x03');
    const screen = await terminal.waitFor((s) => s.includes('⊘ Aborted.') && idle(s));
    // "You are a test." and "write a story" sent (28 characters), "partial answ" received (12): about 7 + 3 tokens.
    expect(screen.split('\n').at(-1)).toBe('test-model · 10 tok · turn 1/5');
    input.type('/cost\r');
    await terminal.waitFor('Tokens: 7 in (0 read from cache, 0 written to it), 3 out (0 reasoning).');
    input.type('/clear\r');
    await terminal.waitFor((s) => s.includes('Conversation cleared.') && s.split('\n').at(-1) === 'test-model · 0 tok · turn 0/5');
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });

  it('wraps to narrow terminals and redraws the bottom area on resize', async () => {
    const long = 'This answer is deliberately long so that it must wrap across several rows of a narrow terminal.';
    const { terminal, input, exited } = await start(scripted({ text: long }), { columns: 30 });
    input.type('go\r');
    await terminal.waitFor((s) => s.includes('narrow') && idle(s));
    expect(terminal.screen().split('\n').at(-1)).toBe('test-model · 0 tok · turn 1/5');
    const rows = terminal.all().split('\n');
    expect(rows.every((row) => row.length <= 30)).toBe(true);
    expect(rows).toContain('This answer is deliberately');
    terminal.resize(20, 24);
    // At 20 columns only the model name fits; the old, wider status row is gone.
    expect(terminal.screen().split('\n').slice(-2)).toEqual(['›', 'test-model']);
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });

  it('writes no colour codes with colour off (NO_COLOR), and colours with it on', async () => {
    const plainRun = await start(scripted({ text: '**bold** answer' }));
    plainRun.input.type('x\r');
    await plainRun.terminal.waitFor('bold answer');
    plainRun.input.type('/exit\r');
    await plainRun.exited;
    expect(plainRun.terminal.raw).not.toMatch(/\x1b\[[0-9;]*m(?<!\x1b\[0m)/);

    const coloured = await start(scripted({ text: '**bold** answer' }), { theme: createTheme(true) });
    coloured.input.type('x\r');
    await coloured.terminal.waitFor('bold answer');
    coloured.input.type('/exit\r');
    await coloured.exited;
    expect(coloured.terminal.raw).toContain('\x1b[1mbold\x1b[22m');
  });

  it('ends when its signal is aborted from outside (SIGTERM), cancelling a running turn and restoring the terminal', async () => {
    const outside = new AbortController();
    const { terminal, input, exited } = await start(hangingAfter('thinking hard'), { signal: outside.signal });
    input.type('work\r');
    await terminal.waitFor('thinking hard');
    outside.abort();
    expect(await exited).toBe(0);
    expect(input.raw).toBe(false);
    expect(terminal.raw.endsWith('\x1b[?2004l')).toBe(true); // bracketed paste switched off again
  });

  it('Ctrl-Z hands the terminal back while suspended and redraws the prompt when continued', async () => {
    let resume!: () => void;
    let suspended = false;
    const { terminal, input, exited } = await start(scripted(), {
      suspend: () =>
        new Promise<void>((resolve) => {
          suspended = true;
          resume = resolve;
        }),
    });
    input.type('draft');
    await terminal.waitFor('› draft');
    input.type('\x1a');
    await terminal.waitFor((s) => suspended && !s.includes('› draft'));
    expect(input.raw).toBe(false);
    expect(terminal.raw.endsWith('\x1b[?2004l')).toBe(true);
    resume();
    await terminal.waitFor('› draft'); // the draft survives the suspension
    expect(input.raw).toBe(true);
    input.type('\x15\x04');
    expect(await exited).toBe(0);
  });
});
