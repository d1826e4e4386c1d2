import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../src/contracts/tool.js';
import { runAgent } from '../src/core/loop.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { catalogLoaded } from '../src/providers/shared/model-catalog.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { deferredTool, specOf } from '../src/tools/deferred-tool.js';
import { warmUpWhileRequestIsOut } from '../src/core/warm-up.js';
import { ToolRegistry } from '../src/tools/registry.js';

/** Resolves once `ready()` holds, looking again each turn of the event loop. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

function sse(res: ServerResponse, delta: object, finish: string): void {
  const frame = (payload: object) => res.write(`data: ${JSON.stringify({ id: 'r', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', ...payload })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  frame({ choices: [{ index: 0, delta, finish_reason: finish }] });
  frame({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });
  res.end('data: [DONE]\n\n');
}

describe('the first request out', () => {
  it('loads the price catalog and the offered tools\' code before its reply is in', async () => {
    let loads = 0;
    const tool = deferredTool(specOf(calculatorTool), async () => {
      loads++;
      return calculatorTool;
    });
    let requests = 0;
    // The first reply is held until the client has loaded the catalog and the tool: without the warm-up, it never comes.
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const first = ++requests === 1;
        void (first ? until(() => loads === 1 && catalogLoaded()) : Promise.resolve()).then(() =>
          first
            ? sse(res, { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{"expression":"1+1"}' } }] }, 'tool_calls')
            : sse(res, { content: 'two' }, 'stop'),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const provider = new OpenAIProvider({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}/v1` });
      const run = runAgent({ provider, model: 'gpt-4o', input: 'add', tools: new ToolRegistry([tool as Tool]) });
      let step = await run.next();
      while (!step.done) step = await run.next();
      expect(step.value.answer).toBe('two');
      expect(loads).toBe(1);
    } finally {
      server.close();
    }
  });

  it('starts no step between a reply and the next request: the round\'s own work goes first', async () => {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const ran: string[] = [];
    let release = () => {};
    const warmUp = warmUpWhileRequestIsOut([
      () => {
        ran.push('first');
        return new Promise<void>((resolve) => (release = resolve));
      },
      () => ran.push('second'),
    ]);
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      await (await fetch(url, { method: 'POST', body: 'one' })).text();
      await until(() => ran.length === 1);
      warmUp.replyIn();
      release();
      // The runner waits one turn before each step: ten turns are ample for a step that would start.
      for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(ran).toEqual(['first']);
      await (await fetch(url, { method: 'POST', body: 'two' })).text();
      await until(() => ran.length === 2);
      expect(ran).toEqual(['first', 'second']);
    } finally {
      warmUp.stop();
      server.close();
    }
  });
});
