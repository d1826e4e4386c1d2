// The scripted model behind bench/cache.bench.mjs: one local server that speaks both the Anthropic
// Messages API (POST /v1/messages) and OpenAI Chat Completions (POST /v1/chat/completions), streams
// a tool call each round until the session's rounds are done, reports usage as the provider's
// prompt cache would (bench/prompt-cache.mjs), and logs every request body with its time.
import { createServer } from 'node:http';
import { PromptCacheSimulator } from './prompt-cache.mjs';

/**
 * @param {{ rounds: number, call: (round: number, toolNames: string[], body: any) => { name: string, arguments: object } }} script
 *   `rounds` tool rounds after each user message, then an answer.
 */
export function startSessionServer(script) {
  /** @type {Array<{ provider: 'anthropic' | 'openai', body: any, at: number }>} */
  const requests = [];
  const simulator = new PromptCacheSimulator();
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const provider = req.url?.includes('/messages') ? 'anthropic' : 'openai';
      const body = JSON.parse(text);
      requests.push({ provider, body, at: Date.now() });
      const outcome = simulator.bill(provider, body);
      if (!outcome.ok) {
        res.writeHead(outcome.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: outcome.type, message: outcome.message } }));
        return;
      }
      const round = roundsSinceUser(provider, body);
      const toolNames = (body.tools ?? []).map((tool) => tool.name ?? tool.function?.name);
      const reply = round < script.rounds ? { call: { id: `call_${requests.length}`, ...script.call(round, toolNames, body) } } : { text: 'done' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(provider === 'anthropic' ? anthropicStream(body.model, reply, outcome.wire) : openaiStream(body.model, reply, outcome.wire));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}` })));
}

/** Tool rounds since the newest user text (a resumed session's second task counts from its own prompt). */
function roundsSinceUser(provider, body) {
  let rounds = 0;
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    if (provider === 'openai') {
      if (message.role === 'user') break;
      if (message.role === 'assistant') rounds++;
      continue;
    }
    if (message.role === 'assistant') rounds++;
    const blocks = typeof message.content === 'string' ? [{ type: 'text' }] : message.content;
    if (message.role === 'user' && blocks.some((block) => block.type === 'text')) break;
  }
  return rounds;
}

const frame = (event, data) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

function anthropicStream(model, reply, usage) {
  const block = reply.call ? { type: 'tool_use', id: reply.call.id, name: reply.call.name, input: {} } : { type: 'text', text: '' };
  const delta = reply.call ? { type: 'input_json_delta', partial_json: JSON.stringify(reply.call.arguments) } : { type: 'text_delta', text: reply.text };
  return [
    frame('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }),
    frame('content_block_start', { index: 0, content_block: block }),
    frame('content_block_delta', { index: 0, delta }),
    frame('content_block_stop', { index: 0 }),
    frame('message_delta', { delta: { stop_reason: reply.call ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 8 } }),
    frame('message_stop', {}),
  ].join('');
}

function openaiStream(model, reply, usage) {
  const chunk = (payload) => `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 1, model, ...payload })}\n\n`;
  const delta = reply.call
    ? { role: 'assistant', tool_calls: [{ index: 0, id: reply.call.id, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.arguments) } }] }
    : { role: 'assistant', content: reply.text };
  return [
    chunk({ choices: [{ index: 0, delta, finish_reason: reply.call ? 'tool_calls' : 'stop' }] }),
    chunk({ choices: [], usage: { ...usage, completion_tokens: 8, total_tokens: usage.prompt_tokens + 8 } }),
    'data: [DONE]\n\n',
  ].join('');
}
