// `vibe-agent serve`: the server's memory with 20 idle sessions, then with 5 clients streaming
// events while their sessions run, and the time from POST …/prompts to the first event on a stream.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVibeClient, readEvents } from '../dist/client/index.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const PROMPTS = Number(process.env.BENCH_SERVE_PROMPTS ?? 20);

function sse(res, delta, finish) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
}

/** A model that answers every request at once with a short streamed text. */
function startModel() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sse(res, { role: 'assistant', content: 'ok, ' }, null);
      sse(res, { content: 'done' }, null);
      sse(res, {}, 'stop');
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function startServe(env, cwd) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    child.stdout.on('data', (data) => {
      out += data;
      const url = /^Listening on (\S+)$/m.exec(out)?.[1];
      const token = /^Token \(saved in .*, shown only now\): (\S+)$/m.exec(out)?.[1];
      if (url && token) resolve({ child, url, token });
    });
  });
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];

/** Prompts the session and resolves with the ms from the POST to the first event of that prompt on an open stream. */
async function firstEventMs(client, base, sessionId) {
  const info = await client.GET('/v1/sessions/{id}', { params: { path: { id: sessionId } } });
  const stop = new AbortController();
  const events = readEvents({ ...base, sessionId, after: info.data.lastSeq, signal: stop.signal });
  const first = events.next();
  const started = performance.now();
  await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id: sessionId } }, body: { text: 'go', mode: 'queue' } });
  await first;
  const elapsed = performance.now() - started;
  for await (const event of events) if (event.type === 'stop') break;
  stop.abort();
  return elapsed;
}

const root = mkdtempSync(join(tmpdir(), 'vibe-bench-serve-'));
const workspace = join(root, 'workspace');
mkdirSync(workspace);
const model = await startModel();
const env = { PATH: process.env.PATH, HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), NO_COLOR: '1', OPENAI_API_KEY: 'x', OPENAI_BASE_URL: `http://127.0.0.1:${model.address().port}`, VIBE_MODEL: 'm' };
const server = await startServe(env, workspace);
try {
  const base = { baseUrl: server.url, token: server.token };
  const client = createVibeClient(base);
  const rows = [['idle server', rssMb(server.child.pid)]];
  const ids = [];
  for (let i = 0; i < 20; i += 1) ids.push((await client.POST('/v1/sessions', { body: { workspace } })).data.id);
  rows.push(['20 idle sessions', rssMb(server.child.pid)]);

  // Latency on an otherwise quiet server: POST …/prompts → the first event on the stream.
  await firstEventMs(client, base, ids[0]);
  const latencies = [];
  for (let i = 0; i < PROMPTS; i += 1) latencies.push(await firstEventMs(client, base, ids[0]));

  // 5 clients, each streaming its own session while it runs prompts back to back.
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid))), 20);
  await Promise.all(ids.slice(1, 6).map(async (id) => {
    for (let i = 0; i < PROMPTS / 2; i += 1) await firstEventMs(client, base, id);
  }));
  clearInterval(sampler);
  rows.push(['20 sessions, 5 streaming (peak)', peak]);

  console.log('\nvibe-agent serve: memory (RSS of the server process)');
  console.table(rows.map(([what, mb]) => ({ what, 'RSS MB': mb.toFixed(1), 'vs idle server': `${(mb / rows[0][1]).toFixed(2)}x` })));
  console.log(`POST …/prompts → first event on the stream, ${PROMPTS} prompts: median ${median(latencies).toFixed(1)} ms, p90 ${p90(latencies).toFixed(1)} ms`);
} finally {
  server.child.removeAllListeners('exit');
  server.child.kill('SIGTERM');
  model.close();
  rmSync(root, { recursive: true, force: true });
}
