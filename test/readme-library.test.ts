/**
 * The README's Library example, as written there (only the weather URL points at a local server and
 * the imports come from the source), run through the real SDK against the scripted chat server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run, defineTool, ToolRegistry, OpenAIProvider, courseTools, runAgent, type AgentEvent } from '../src/index.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function weatherServer(): Promise<string> {
  const server: Server = createServer((req, res) => {
    const city = decodeURIComponent(req.url!.slice(1).split('?')[0]!);
    res.end(`${city}: ${city === 'Rome' ? '+24°C' : '+18°C'}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function chatServer(): Promise<ChatServer> {
  const server = await startChatServer([
    { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }, { name: 'weather', arguments: { city: 'Rome' } }] },
    { text: 'Rome is warmer: +24°C against +18°C in Paris.' },
  ]);
  closers.push(() => server.close());
  return server;
}

describe('the README Library example', () => {
  it('compiles and runs: a custom tool next to the course tools, streamed text, the result fields', async () => {
    const base = await weatherServer();
    const chat = await chatServer();
    const streamed: string[] = [];

    const weather = defineTool({
      name: 'weather',
      description: 'Current weather for a city.',
      parameters: z.object({ city: z.string() }),
      readOnly: true,
      async execute({ city }, { signal }) {
        const res = await fetch(`${base}/${encodeURIComponent(city)}?format=3`, { signal });
        return await res.text();
      },
    });

    const result = await run(
      {
        provider: new OpenAIProvider({ apiKey: 'test-key', baseURL: chat.url }),
        model: 'gpt-4.1-mini',
        input: 'Is it warmer in Paris or in Rome right now?',
        tools: new ToolRegistry([...courseTools, weather]),
        maxTurns: 6,
      },
      (event) => { if (event.type === 'text_delta') streamed.push(event.text); },
    );

    expect([result.stopReason, result.turns]).toEqual(['answered', 2]);
    expect(result.answer).toBe('Rome is warmer: +24°C against +18°C in Paris.');
    expect(streamed.join('')).toBe(result.answer);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.handoff).toBeUndefined();
    expect(chat.violations).toEqual([]);
    expect(chat.requests[0]!.tools!.map((t) => t.function.name)).toEqual(['current_time', 'calculator', 'fetch_url', 'weather']);
    const results = chat.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['Paris: +18°C', 'Rome: +24°C']);
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: result.answer });
  });

  it('runAgent yields the events and returns the same result shape; messages continue a conversation', async () => {
    const chat = await startChatServer([{ text: 'First.' }, { text: 'Second.' }]);
    closers.push(() => chat.close());
    const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: chat.url });
    const tools = new ToolRegistry(courseTools);
    const events: AgentEvent[] = [];
    const generator = runAgent({ provider, model: 'm', input: 'one', tools });
    let step = await generator.next();
    while (!step.done) {
      events.push(step.value);
      step = await generator.next();
    }
    expect(step.value).toMatchObject({ answer: 'First.', stopReason: 'answered', turns: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'stop', reason: 'answered' });

    const second = await run({ provider, model: 'm', input: 'two', tools, messages: step.value.messages });
    expect(second.answer).toBe('Second.');
    expect(chat.requests[1]!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'First.'],
      ['user', 'two'],
    ]);
  });
});
