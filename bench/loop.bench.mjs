// The loop's own overhead: R tool rounds through runAgent + the openai SDK, versus a raw fetch loop
// doing the same round trips with the same bodies, against one local streaming server. Plus start-up.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { run, OpenAIProvider, ToolRegistry, calculatorTool } from '../dist/index.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

function sse(res, delta, finish) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
}

/** Calls calculator until the request holds `rounds` tool results, then answers. */
function startServer(rounds, onRequest = () => {}) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      onRequest();
      const messages = JSON.parse(body).messages;
      const done = messages.filter((m) => m.role === 'tool').length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (done >= rounds.value) {
        sse(res, { content: 'done' }, null);
        sse(res, {}, 'stop');
      } else {
        sse(res, { tool_calls: [{ index: 0, id: `c${done}`, type: 'function', function: { name: 'calculator', arguments: '' } }] }, null);
        sse(res, { tool_calls: [{ index: 0, function: { arguments: `{"expression":"${done}+1"}` } }] }, null);
        sse(res, {}, 'tool_calls');
      }
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function agentRounds(url, rounds) {
  const provider = new OpenAIProvider({ apiKey: 'x', baseURL: url });
  const started = performance.now();
  const result = await run({ provider, model: 'm', input: 'go', tools: new ToolRegistry([calculatorTool]), maxTurns: rounds + 1, repeatLimit: 1e9, changingRepeatLimit: 1e9 });
  if (result.stopReason !== 'answered') throw new Error(`bench run ended ${result.stopReason}`);
  return performance.now() - started;
}

async function rawRounds(url, rounds) {
  const tools = new ToolRegistry([calculatorTool]).schemas().map((t) => ({ type: 'function', function: t }));
  const messages = [{ role: 'user', content: 'go' }];
  const started = performance.now();
  for (let i = 0; i <= rounds; i++) {
    const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: JSON.stringify({ model: 'm', messages, tools, temperature: 0, stream: true, stream_options: { include_usage: true } }) });
    await res.text();
    if (i < rounds) {
      messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'calculator', arguments: `{"expression":"${i}+1"}` } }] });
      messages.push({ role: 'tool', tool_call_id: `c${i}`, content: `${i}+1 = ${i + 1}` });
    }
  }
  return performance.now() - started;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function spawnTimed(args, env, until) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
    let first;
    until?.then(() => (first = performance.now() - started));
    child.on('close', () => resolve({ total: performance.now() - started, first }));
  });
}

export default async function loopBench() {
  const rounds = { value: 0 };
  const server = await startServer(rounds);
  const url = `http://127.0.0.1:${server.address().port}/v1`;
  const rows = [];
  for (const R of [100, 500, 1000]) {
    rounds.value = R;
    const agent = [];
    const raw = [];
    for (let i = 0; i < 3; i++) {
      raw.push(await rawRounds(url, R));
      agent.push(await agentRounds(url, R));
    }
    globalThis.gc?.();
    const memory = process.memoryUsage();
    const overhead = (median(agent) - median(raw)) / R;
    rows.push({ rounds: R, 'raw ms/round': (median(raw) / R).toFixed(3), 'agent ms/round': (median(agent) / R).toFixed(3), 'overhead ms/round': overhead.toFixed(3), target: '< 0.5', result: overhead < 0.5 ? 'PASS' : 'MISS', 'rss MB': (memory.rss / 2 ** 20).toFixed(0), 'heap MB': (memory.heapUsed / 2 ** 20).toFixed(0) });
  }
  server.close();
  console.log('\nLoop overhead over raw HTTP (median of 3; the history grows each round in both)');
  console.table(rows);

  const bare = [];
  const version = [];
  const firstRequest = [];
  for (let i = 0; i < 10; i++) bare.push((await new Promise((resolve) => { const t = performance.now(); spawn(process.execPath, ['-e', '0']).on('close', () => resolve(performance.now() - t)); })));
  for (let i = 0; i < 10; i++) version.push((await spawnTimed(['--version'], {})).total);
  rounds.value = 0;
  for (let i = 0; i < 10; i++) {
    let arrived;
    const reached = new Promise((resolve) => (arrived = resolve));
    const probe = await startServer(rounds, () => arrived());
    const { first } = await spawnTimed(['hello', '--tools', 'course'], { OPENAI_API_KEY: 'x', OPENAI_BASE_URL: `http://127.0.0.1:${probe.address().port}/v1`, VIBE_MODEL: 'm' }, reached);
    firstRequest.push(first);
    probe.close();
  }
  console.log('\nStart-up (median of 10 spawns)');
  console.table([
    { measure: 'node -e 0 (Node itself)', ms: median(bare).toFixed(0), target: '', result: '' },
    { measure: 'vibe-agent --version', ms: median(version).toFixed(0), target: '< 150', result: median(version) < 150 ? 'PASS' : 'MISS' },
    { measure: 'process start → first request at server', ms: median(firstRequest).toFixed(0), target: '< 150', result: median(firstRequest) < 150 ? 'PASS' : 'MISS' },
  ]);
}
