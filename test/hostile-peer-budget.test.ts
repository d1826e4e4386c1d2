/**
 * Every peer's bytes counted as they arrive (issue 34, classes 3 and 4): event streams re-framed
 * whole and in order for any chunking, budgets cut a peer off exactly when it passes them, and
 * peers that never stop sending end with a clear error through the real SDKs.
 */
import { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ByteBudgetError } from '../src/contracts/byte-budget.js';
import { boundedFetch } from '../src/contracts/bounded-fetch.js';
import { sseReframe } from '../src/contracts/sse-reframe.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { requestJson } from '../src/tools/builtin/web-search/backends/service-http.js';
import { BoundedMessages } from '../src/lsp/bounded-messages.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer } from './support/chat-server.js';
import { startGeminiServer } from './support/gemini-server.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { McpServers } from '../src/mcp/mcp-servers.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const encoder = new TextEncoder();
const eventArb = fc.record({ event: fc.option(fc.stringMatching(/^[a-z_.]{1,12}$/), { nil: undefined }), data: fc.string({ maxLength: 60 }).filter((text) => !text.includes('\r')) });

function wire(events: Array<{ event?: string | undefined; data: string }>): string {
  return events.map(({ event, data }) => `${event ? `event: ${event}\n` : ''}${data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`).join('');
}

/** The bytes cut at the given points, each piece a chunk. */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) pieces.push(bytes.subarray(from, point));
    from = Math.max(from, point);
  }
  return pieces;
}

async function through(pieces: Uint8Array[], budget: { maxEventBytes: number; maxReplyBytes: number }): Promise<{ chunks: string[]; error?: unknown }> {
  const stream = sseReframe(new ReadableStream<Uint8Array>({ start(controller) { for (const piece of pieces) controller.enqueue(piece); controller.close(); } }), 'peer', budget);
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(decoder.decode(chunk));
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

function parse(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

describe('event streams re-framed', () => {
  it('property: any events in any chunking come out as the same events, each whole in one chunk', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), async (events, cuts) => {
        const { chunks, error } = await through(chunked(encoder.encode(wire(events)), cuts), { maxEventBytes: 1 << 20, maxReplyBytes: 1 << 20 });
        expect(error).toBeUndefined();
        expect(chunks).toHaveLength(events.length);
        chunks.forEach((chunk) => expect(chunk.endsWith('\n\n') && parse(chunk).length === 1).toBe(true));
        expect(parse(chunks.join('')).map(({ event, data }) => ({ event, data }))).toEqual(events.map(({ event, data }) => ({ event, data })));
      }),
      { numRuns: 150 },
    );
  });

  it('property: the reply budget cuts a stream off exactly when its bytes pass it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 10 }), fc.array(fc.nat(), { maxLength: 10 }), fc.nat({ max: 600 }), async (events, cuts, limit) => {
        const bytes = encoder.encode(wire(events));
        const { error } = await through(chunked(bytes, cuts), { maxEventBytes: 1 << 20, maxReplyBytes: limit });
        if (bytes.length > limit) expect(error).toBeInstanceOf(ByteBudgetError);
        else expect(error).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });

  it('property: one event longer than the event budget is cut off before it is whole, however it arrives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 64, max: 4096 }), fc.array(fc.nat(), { maxLength: 30 }), async (limit, cuts) => {
        const bytes = encoder.encode(`data: ${'x'.repeat(limit * 2)}\n\n`);
        const { chunks, error } = await through(chunked(bytes, cuts), { maxEventBytes: limit, maxReplyBytes: 1 << 20 });
        expect(error).toBeInstanceOf(ByteBudgetError);
        expect(chunks).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

describe('peers that never stop sending', () => {
  it('an endless Anthropic event is cut off at the event budget with a clear error, asked once', async () => {
    const server = await startAnthropicServer([{ kind: 'endless', head: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"', repeat: 'x'.repeat(1024) }]);
    closers.push(() => server.close());
    const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url });
    const failure = await (async () => {
      for await (const event of provider.stream({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], tools: [], temperature: 0 })) void event;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/anthropic sent more than 16 MiB in one event/);
    expect((failure as ProviderError).retryable).toBe(false);
  });

  it('endless content on Chat Completions through the openai SDK ends at the reply budget', async () => {
    const frame = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'more ' }, finish_reason: null }] })}\n\n`;
    const server = await startChatServer([{ kind: 'endless', head: '', repeat: frame }], { checkEcho: false });
    closers.push(() => server.close());
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0, fetch: boundedFetch('openai', { maxEventBytes: 64 * 1024, maxReplyBytes: 2 * 1024 * 1024 }) });
    let text = '';
    const failure = await (async () => {
      const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ByteBudgetError);
    expect((failure as Error).message).toBe('openai sent more than 2 MiB in one reply; stopped reading.');
    expect(text.length).toBeGreaterThan(0);
  });

  it('an endless search answer is cut off at 2 MB, not read whole first', async () => {
    const server = await startChatServer([{ kind: 'endless', head: '{"results":[', repeat: '{"title":"t","url":"https://e.example","content":"c"},', contentType: 'application/json' }], { checkEcho: false });
    closers.push(() => server.close());
    await expect(requestJson('Tavily', new URL(`${server.url}/chat/completions`), { method: 'POST', headers: {}, body: { model: 'm', messages: [{ role: 'user', content: 'q' }] } })).rejects.toThrow('Tavily answered with more than 2097152 bytes; stopped reading.');
  });
});

/** The process's peak RSS while `work` runs, sampled as it runs, in MB above where it started. */
async function peakGrowth(work: () => Promise<unknown>): Promise<number> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return (Math.max(peak, process.memoryUsage().rss) - start) / 1024 / 1024;
}

/** A peer on 127.0.0.1 that answers every POST with `head` then `repeat` for as long as the client reads. */
async function endlessPeer(contentType: string, head: string, repeat: string): Promise<string> {
  const block = Buffer.from(repeat.repeat(Math.max(1, Math.floor(65536 / repeat.length))));
  const server = createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': contentType });
    let open = true;
    res.on('close', () => (open = false));
    const pump = (): void => {
      while (open && res.write(block));
      if (open) res.once('drain', pump);
    };
    res.write(head);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('peers that never stop sending, on the Gemini wire and MCP over HTTP (the same budgets: 16 MiB an event, 64 MiB a body or reply)', () => {
  it('an endless Gemini event is cut off at the event budget with a clear error, not retried, the process staying under 200 MB more', async () => {
    const server = await startGeminiServer([{ kind: 'endless', head: 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"', repeat: 'x'.repeat(1024) }]);
    closers.push(() => server.close());
    const provider = new GoogleProvider({ apiKey: 'k', baseURL: server.url });
    let failure: unknown;
    const growth = await peakGrowth(async () => {
      failure = await (async () => {
        for await (const event of provider.stream({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }], tools: [], temperature: 0 })) void event;
      })().catch((error: unknown) => error);
    });
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/sent more than 16 MiB in one event; stopped reading/);
    expect((failure as ProviderError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect(growth).toBeLessThan(200);
  });

  it.each([
    ['one endless event', 'text/event-stream', 'event: message\ndata: {"jsonrpc":"2.0","id":0,"result":{"padding":"', 'x'.repeat(1024), /sent more than 16 MiB in one event/],
    ['an endless JSON body', 'application/json', '{"jsonrpc":"2.0","id":0,"result":{"padding":"', 'x'.repeat(1024), /sent more than 64 MiB/],
  ])('an MCP server over HTTP sending %s fails to start with a clear error, the process staying under 200 MB more', async (_what, contentType, head, repeat, message) => {
    const url = await endlessPeer(contentType, head, repeat);
    const warnings: string[] = [];
    const servers = new McpServers({ registry: new ToolRegistry(), warn: (text) => warnings.push(text) });
    closers.push(() => servers.close());
    const growth = await peakGrowth(async () => {
      servers.start({ name: 'endless', spec: { transport: 'http', url, headers: {} }, origin: { scope: 'user', file: '/home/u/.config/vibe-agent/config.json', format: 'vibe-agent' } }, true);
      await servers.settled(60_000);
    });
    const status = servers.status()[0] as { state: string; error?: string };
    expect(status.state).toBe('failed');
    expect(`${status.error ?? ''} ${warnings.join(' ')}`).toMatch(message);
    // Failed by the budget itself, not after the 30 s start-up wait.
    expect(status.error).not.toContain('did not finish starting');
    expect(growth).toBeLessThan(200);
  });
});

describe('language server messages', () => {
  const message = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  async function pass(pieces: Buffer[], limit: number): Promise<{ out: string; error?: Error }> {
    const bounded = new BoundedMessages('server', limit);
    const out: Buffer[] = [];
    bounded.on('data', (chunk: Buffer) => out.push(chunk));
    const finished = new Promise<Error | undefined>((resolve) => {
      bounded.on('end', () => resolve(undefined));
      bounded.on('error', resolve);
    });
    Readable.from(pieces).pipe(bounded);
    const error = await finished;
    return { out: Buffer.concat(out).toString(), ...(error ? { error } : {}) };
  }

  it('property: messages within the budget pass unchanged in any chunking; one past it stops the stream', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ maxLength: 200 }), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 10, max: 300 }), async (bodies, cuts, limit) => {
        const text = bodies.map((body) => message(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: body }))).join('');
        const pieces = chunked(Buffer.from(text), cuts).map((piece) => Buffer.from(piece));
        const { out, error } = await pass(pieces, limit);
        const over = bodies.some((body) => Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: body })) > limit);
        if (over) expect(error).toBeInstanceOf(ByteBudgetError);
        else expect(out).toBe(text);
      }),
      { numRuns: 120 },
    );
  });

  it('a header that never ends is cut off at 8 KiB', async () => {
    const { error } = await pass([Buffer.from('Content-Length: 1\r\nX-Filler: '), Buffer.from('a'.repeat(20_000))], 1 << 20);
    expect(error?.message).toBe('server sent more than 8 KiB in one message header; stopped reading.');
  });
});
