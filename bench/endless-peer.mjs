// One endless peer, for stream-decode.bench.mjs: prints the error, the time to it and the peak RSS.
import { createServer } from 'node:http';
import { OpenAIProvider } from '../dist/providers/openai/openai-provider.js';
import { ResponsesProvider } from '../dist/providers/openai-responses/responses-provider.js';
import { AnthropicProvider } from '../dist/providers/anthropic/anthropic-provider.js';
import { GoogleProvider } from '../dist/providers/google/google-provider.js';
import { requestJson } from '../dist/tools/builtin/web-search/backends/service-http.js';

const wire = process.argv[2];
const frames = {
  chat: ['', `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'endless ' }, finish_reason: null }] })}\n\n`],
  responses: ['', `event: response.reasoning_summary_text.delta\ndata: ${JSON.stringify({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'thinking ', sequence_number: 1 })}\n\n`],
  anthropic: ['event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"', 'x'.repeat(1024)],
  gemini: ['data: {"candidates":[{"content":{"role":"model","parts":[{"text":"', 'x'.repeat(1024)],
  search: ['{"results":[', '{"title":"t","url":"https://e.example","content":"c"},'],
}[wire];
const repeat = Buffer.from(frames[1].repeat(Math.max(1, Math.floor(65536 / frames[1].length))));
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': wire === 'search' ? 'application/json' : 'text/event-stream' });
  let open = true;
  res.on('close', () => (open = false));
  const pump = () => {
    while (open && res.write(repeat));
    if (open) res.once('drain', pump);
  };
  res.write(frames[0]);
  pump();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const started = performance.now();
let error = '';
const request = { model: wire === 'gemini' ? 'gemini-2.5-flash' : 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], tools: [], temperature: 0 };
try {
  if (wire === 'search') await requestJson('search service', new URL(url), { headers: {} });
  else {
    const provider = wire === 'chat' ? new OpenAIProvider({ apiKey: 'sk-bench', baseURL: `${url}/v1` }) : wire === 'responses' ? new ResponsesProvider({ apiKey: 'sk-bench', baseURL: `${url}/v1` }) : wire === 'gemini' ? new GoogleProvider({ apiKey: 'bench', baseURL: url }) : new AnthropicProvider({ apiKey: 'sk-ant-bench', baseURL: url });
    for await (const event of provider.stream(request)) void event;
  }
} catch (caught) {
  error = caught.message;
}
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
server.closeAllConnections();
server.close();
process.stdout.write(JSON.stringify({ peer: wire, 'ended with': error.slice(0, 90), 'time to cut, ms': Math.round(ms), 'peak RSS, MB': Math.round(peak / 1024 / 1024) }));
