// Hostile peers (issue 34, classes 3 and 4). One server-sent event of N MB decoded through the
// openai SDK with its own fetch (its line splitter copies and rescans its buffer on every chunk:
// quadratic) and with the bounded fetch every provider now gets (eventsource-parser re-frames whole
// events: linear); then peers that never stop sending, cut off at the byte budget, with the
// process's peak RSS. The old path is measured only up to 16 MB: beyond it, it does not finish.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import OpenAI from 'openai';
import { boundedFetch } from '../dist/contracts/bounded-fetch.js';

const MB = 1024 * 1024;

export function eventServer(megabytes) {
  const head = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"';
  const tail = '"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
  const piece = Buffer.from('x'.repeat(64 * 1024));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(head);
      for (let sent = 0; sent < megabytes * MB; sent += piece.length) if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
      res.end(tail);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/v1`, close: () => new Promise((r) => server.close(r)) })));
}

/** One event of N MB through the openai SDK, with its own fetch or the one given; the time in ms. */
export async function decode(megabytes, fetch) {
  const server = await eventServer(megabytes);
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL: server.url, maxRetries: 0, ...(fetch ? { fetch } : {}) });
  const started = performance.now();
  let chars = 0;
  const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
  for await (const chunk of stream) chars += chunk.choices[0]?.delta?.content?.length ?? 0;
  const ms = performance.now() - started;
  await server.close();
  if (chars !== megabytes * MB) throw new Error(`decoded ${chars} characters of ${megabytes * MB}`);
  return ms;
}

/** Runs one endless-peer case in a child process and reads its peak RSS. */
function endless(wire) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./endless-peer.mjs', import.meta.url).pathname, wire], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (data) => (out += data));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${wire}: exit ${code}`))));
  });
}

export default async function streamDecodeBench() {
  const wide = boundedFetch('bench', { maxEventBytes: 256 * MB, maxReplyBytes: 256 * MB });
  const rows = [];
  for (const size of [4, 8, 16, 100]) {
    const before = size <= 16 ? await decode(size, undefined) : undefined;
    const after = await decode(size, wide);
    rows.push({ 'one event': `${size} MB`, 'SDK decoder alone, ms': before === undefined ? 'not finished in minutes' : before.toFixed(0), 'bounded fetch, ms': after.toFixed(0), 'MB/s now': ((size / after) * 1000).toFixed(0) });
  }
  console.log('\nOne server-sent event of N MB through the openai SDK (Chat Completions)');
  console.table(rows);
  const peers = [];
  for (const wire of ['chat', 'responses', 'anthropic', 'gemini', 'search']) peers.push(await endless(wire));
  console.log('\nPeers that never stop sending (default budgets: 16 MiB an event, 64 MiB a reply, 2 MB a search answer)');
  console.table(peers);
}

if (import.meta.url === `file://${process.argv[1]}`) await streamDecodeBench();
