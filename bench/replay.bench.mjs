// What request records and telemetry cost: recording each model request (as a change to the last)
// over a long session, the file's growth with and without them, rebuilding every request, and a
// one-shot CLI run with OpenTelemetry export on against the same run without it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession, readSessionFile, rebuildRequests } from '../dist/index.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const TURNS = 300;
const tools = [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

function record(dir, withRequests) {
  const session = createSession({ workspace: dir, env: { XDG_DATA_HOME: dir } });
  const messages = [{ role: 'system', content: 'You are a coding agent. '.repeat(80) }, { role: 'user', content: 'go' }];
  session.writer.append({ type: 'run_start', provider: 'p', model: 'm', tools: ['read_file'], input: 'go' });
  const times = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    if (withRequests) {
      const started = performance.now();
      session.writer.recordRequest({ model: 'm', messages: [...messages], tools, temperature: 0 });
      times.push(performance.now() - started);
    }
    const call = { id: `c${turn}`, name: 'read_file', arguments: JSON.stringify({ path: `src/f${turn}.ts` }) };
    const assistant = { role: 'assistant', content: '', toolCalls: [call] };
    const output = `line of source code ${turn} `.repeat(40);
    session.writer.record({ type: 'turn_start', turn });
    session.writer.record({ type: 'assistant_message', turn, message: assistant, finishReason: 'tool_calls' });
    session.writer.record({ type: 'tool_call_end', turn, id: call.id, name: call.name, status: 'ok', isError: false, output, durationMs: 1 });
    const tool = { role: 'tool', toolCallId: call.id, name: call.name, content: output, isError: false };
    session.writer.record({ type: 'turn_end', turn, messages: [assistant, tool] });
    messages.push(assistant, tool);
  }
  session.close();
  return { path: session.path, size: statSync(session.path).size, times };
}

async function cliRun(url, workspace, extraEnv, runs) {
  const env = { PATH: process.env.PATH, HOME: workspace, XDG_DATA_HOME: join(workspace, 'data'), XDG_CONFIG_HOME: join(workspace, 'cfg'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: 'm', ...extraEnv };
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'hi'], { cwd: workspace, env, stdio: 'ignore' });
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const dir = mkdtempSync(join(tmpdir(), 'vibe-replay-bench-'));
try {
  const without = record(join(dir, 'a'), false);
  const withRequests = record(join(dir, 'b'), true);
  const at = (n) => withRequests.times[n - 1].toFixed(2);
  const started = performance.now();
  const rebuilt = rebuildRequests(readSessionFile(withRequests.path).records);
  const rebuildMs = performance.now() - started;
  console.log(`| ${TURNS}-turn session (1 KB tool outputs) | value |\n|---|---|`);
  console.log(`| file without request records | ${(without.size / 1024).toFixed(0)} KB |`);
  console.log(`| file with request records | ${(withRequests.size / 1024).toFixed(0)} KB (×${(withRequests.size / without.size).toFixed(2)}) |`);
  console.log(`| recordRequest at turn 10 / 100 / ${TURNS} | ${at(10)} / ${at(100)} / ${at(TURNS)} ms |`);
  console.log(`| rebuilding all ${rebuilt.requests.length} requests (digests checked) | ${rebuildMs.toFixed(0)} ms |`);

  const chat = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      const chunk = (delta, finish) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(chunk({ role: 'assistant', content: 'ok' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n');
    });
  });
  const otlp = await listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  const url = `http://127.0.0.1:${chat.address().port}/v1`;
  const plain = await cliRun(url, dir, {}, 7);
  const traced = await cliRun(url, dir, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp.address().port}` }, 7);
  console.log(`| one-shot CLI run, median of 7: plain / with OTLP export | ${plain.toFixed(0)} / ${traced.toFixed(0)} ms (×${(traced / plain).toFixed(2)}) |`);
  chat.close();
  otlp.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
