// What saving a session costs: recording a turn (one write per event, fsync at turn end), loading
// and rebuilding a long session for --continue, listing a workspace's sessions, and CLI start-up
// with and without a session.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectSecrets, createRedactor, createSession, listSessions, readSessionFile } from '../dist/index.js';
import { rebuildHistory } from '../dist/session/rebuild-history.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const usage = { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 0, reasoningTokens: 0 };

function turnEvents(turn) {
  const call = { id: `call_${turn}`, name: 'read_file', arguments: JSON.stringify({ path: `src/file-${turn}.ts` }) };
  const assistant = { role: 'assistant', content: '', toolCalls: [call] };
  const output = `line of source code ${turn} `.repeat(40); // ~1 KB of tool output
  const tool = { role: 'tool', toolCallId: call.id, name: call.name, content: output, isError: false };
  return [
    { type: 'turn_start', turn },
    { type: 'usage', turn, usage, total: usage },
    { type: 'assistant_message', turn, message: assistant, finishReason: 'tool_calls' },
    { type: 'tool_call_start', turn, call },
    { type: 'tool_call_end', turn, id: call.id, name: call.name, status: 'ok', isError: false, output, durationMs: 3 },
    { type: 'turn_end', turn, messages: [assistant, tool] },
  ];
}

function recordTurns(dir, turns, redact) {
  const session = createSession({ workspace: dir, env: { XDG_DATA_HOME: dir }, ...(redact ? { redact } : {}) });
  session.writer.append({ type: 'run_start', provider: 'p', model: 'm', tools: ['read_file'], input: 'go' });
  const times = [];
  for (let turn = 1; turn <= turns; turn++) {
    const events = turnEvents(turn);
    const started = performance.now();
    for (const event of events) session.writer.record(event);
    times.push(performance.now() - started);
  }
  session.close();
  return { path: session.path, times: times.sort((a, b) => a - b) };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const ms = (n) => `${n.toFixed(2)} ms`;

async function cliStartup(url, workspace, extraArgs, runs) {
  const env = { PATH: process.env.PATH, HOME: workspace, XDG_DATA_HOME: join(workspace, 'data'), XDG_CONFIG_HOME: join(workspace, 'cfg'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: 'm' };
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...extraArgs, 'hi'], { cwd: workspace, env, stdio: 'ignore' });
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

export default async function sessionBench() {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-session-bench-'));
  try {
    const TURNS = 1000;
    const plain = recordTurns(join(dir, 'plain'), TURNS);
    const secrets = collectSecrets({ ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`SERVICE_${i}_API_KEY`, `sk-secret-value-${i}-abcdef`])) });
    const redacted = recordTurns(join(dir, 'redacted'), TURNS, createRedactor(secrets));

    const size = statSync(plain.path).size;
    let started = performance.now();
    const read = readSessionFile(plain.path);
    const rebuilt = rebuildHistory(read.records);
    const loadMs = performance.now() - started;

    const listDir = join(dir, 'many');
    for (let i = 0; i < 200; i++) recordTurns(listDir, 20);
    started = performance.now();
    const listed = listSessions(listDir, { XDG_DATA_HOME: listDir });
    const listMs = performance.now() - started;

    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/v1`;
    // Interleaved, so load from other processes on the machine hits both alike.
    const on = [];
    const off = [];
    for (let i = 0; i < 7; i++) {
      on.push(await cliStartup(url, dir, [], 1));
      off.push(await cliStartup(url, dir, ['--no-session'], 1));
    }
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const withSession = median(on);
    const without = median(off);
    server.close();

    console.log(`\nSessions (${tmpdir()}; fsync at each turn end)`);
    console.table({
      'record one turn (6 events, fsync)': { value: `p50 ${ms(pct(plain.times, 50))}, p99 ${ms(pct(plain.times, 99))}` },
      'same, redacting 10 secrets': { value: `p50 ${ms(pct(redacted.times, 50))}, p99 ${ms(pct(redacted.times, 99))}` },
      [`load + rebuild ${TURNS} turns (${(size / 1e6).toFixed(1)} MB)`]: { value: `${ms(loadMs)} → ${rebuilt.messages.length} messages` },
      [`list ${listed.length} sessions of 20 turns`]: { value: ms(listMs) },
      'CLI one-shot run, session on (median of 7)': { value: ms(withSession) },
      'CLI one-shot run, --no-session (median of 7)': { value: ms(without) },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
