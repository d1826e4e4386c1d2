// How the adapters behave when a server misbehaves, per wire protocol: how fast Ctrl-C (abort)
// ends a run waiting on a server that never answers, how close to its limit the idle time-out
// gives up on a stalled stream, and how long a 1 MB tool-call argument takes to stream in.
import { createServer } from 'node:http';
import { run, OpenAIProvider, AnthropicProvider, GoogleProvider, ToolRegistry, defineTool } from '../dist/index.js';
import { z } from 'zod';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const BIG = JSON.stringify({ text: 'x'.repeat(1_000_000) });
const FRAGMENT = 256;

const protocols = {
  openai: {
    provider: (url, idleTimeoutMs) => new OpenAIProvider({ apiKey: 'x', baseURL: `${url}/v1`, idleTimeoutMs }),
    start: (res) => res.write(frame({ role: 'assistant', content: '' })),
    bigCall(res) {
      res.write(frame({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'echo', arguments: '' } }] }));
      for (let i = 0; i < BIG.length; i += FRAGMENT) res.write(frame({ tool_calls: [{ index: 0, function: { arguments: BIG.slice(i, i + FRAGMENT) } }] }));
      res.end(frame({}, 'tool_calls') + 'data: [DONE]\n\n');
    },
    answer: (res) => res.end(frame({ content: 'ok' }) + frame({}, 'stop') + 'data: [DONE]\n\n'),
  },
  anthropic: {
    provider: (url, idleTimeoutMs) => new AnthropicProvider({ apiKey: 'x', baseURL: url, idleTimeoutMs }),
    start: (res) => res.write(event('message_start', { message: { id: 'm', type: 'message', role: 'assistant', content: [], model: 'm', stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } })),
    bigCall(res) {
      protocols.anthropic.start(res);
      res.write(event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} } }));
      for (let i = 0; i < BIG.length; i += FRAGMENT) res.write(event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: BIG.slice(i, i + FRAGMENT) } }));
      res.end(event('content_block_stop', { index: 0 }) + event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }) + event('message_stop', {}));
    },
    answer(res) {
      protocols.anthropic.start(res);
      res.end(
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } }) +
          event('content_block_stop', { index: 0 }) +
          event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }) +
          event('message_stop', {}),
      );
    },
  },
  google: {
    provider: (url, idleTimeoutMs) => new GoogleProvider({ apiKey: 'x', baseURL: url, idleTimeoutMs }),
    start: (res) => res.write(gemini([{ text: 'Working' }])),
    // Gemini sends a call whole, in one part: the 1 MB arrives as one frame.
    bigCall: (res) => res.end(gemini([{ functionCall: { name: 'echo', args: JSON.parse(BIG) } }], 'STOP')),
    answer: (res) => res.end(gemini([{ text: 'ok' }], 'STOP')),
  },
};

function frame(delta, finish = null) {
  return `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}
function event(type, data) {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}
function gemini(parts, finishReason) {
  return `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 } })}\r\n\r\n`;
}

/** A server whose every request is handled by `handle(res, n)`; resolves `arrived` on each request. */
function serve(handle) {
  const waiting = [];
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      waiting.splice(0).forEach((resolve) => resolve());
      if (handle(res, n) !== 'silent') return;
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, arrived: () => new Promise((r) => waiting.push(r)), close: () => (server.closeAllConnections(), server.close()) }),
    ),
  );
}

const sseHead = (res) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const echo = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ text: z.string() }), readOnly: true, execute: async ({ text }) => `got ${text.length}` });
const noRetry = { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 };

export default async function () {
  const rows = [];
  for (const [name, protocol] of Object.entries(protocols)) {
    const abortMs = [];
    const silent = await serve(() => 'silent');
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const arrived = silent.arrived();
      const running = run({ provider: protocol.provider(silent.url), model: 'm', input: 'x', signal: controller.signal, retry: noRetry });
      await arrived;
      const started = performance.now();
      controller.abort();
      await running;
      abortMs.push(performance.now() - started);
    }
    silent.close();

    const idleMs = [];
    const stalled = await serve((res) => (sseHead(res), protocol.start(res)));
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = await run({ provider: protocol.provider(stalled.url, 200), model: 'm', input: 'x', retry: noRetry });
      if (result.stopReason !== 'provider_error') throw new Error(`${name}: a stalled stream ended ${result.stopReason}`);
      idleMs.push(performance.now() - started);
    }
    stalled.close();

    const bigMs = [];
    const big = await serve((res, n) => (sseHead(res), n % 2 === 1 ? protocol.bigCall(res) : protocol.answer(res)));
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = await run({ provider: protocol.provider(big.url), model: 'm', input: 'x', tools: new ToolRegistry([echo]), retry: noRetry });
      if (result.answer !== 'ok') throw new Error(`${name}: the 1 MB call did not go through (${result.stopReason} ${result.error ?? ''})`);
      bigMs.push(performance.now() - started);
    }
    big.close();

    rows.push({
      protocol: name,
      'abort while waiting, ms': median(abortMs).toFixed(1),
      target: '< 50',
      result: median(abortMs) < 50 ? 'PASS' : 'MISS',
      'idle 200 ms gives up after, ms': median(idleMs).toFixed(0),
      'idle target': '200–400',
      'idle result': median(idleMs) >= 200 && median(idleMs) < 400 ? 'PASS' : 'MISS',
      '1 MB call, 2 requests, ms': median(bigMs).toFixed(0),
    });
  }
  console.log('\nProviders under misbehaving servers (median; 1 MB arguments in 256-character fragments, whole for Gemini)');
  console.table(rows);
}
