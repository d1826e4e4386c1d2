import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../src/contracts/tool.js';
import { runAgent } from '../src/core/loop.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { catalogLoaded } from '../src/providers/shared/model-catalog.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { deferredTool, specOf } from '../src/tools/deferred-tool.js';
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
});
