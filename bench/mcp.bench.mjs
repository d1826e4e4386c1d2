// Per-call overhead of an MCP tool (a real stdio server written with the SDK) against a built-in tool,
// both through ToolRegistry.invoke; the start of three servers, one slow, against the first-request wait;
// and the whole CLI's time to its first model request with 3 configured stdio servers against none.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry, calculatorTool } from '../dist/index.js';
import { McpServers } from '../dist/mcp/mcp-servers.js';

const SERVER = fileURLToPath(new URL('../test/support/mcp-test-server.mjs', import.meta.url));
const origin = { scope: 'user', file: 'bench', format: 'vibe-agent' };
const spec = (...args) => ({ transport: 'stdio', command: process.execPath, args: [SERVER, ...args], env: {} });
const CALLS = 500;

async function perCall(registry, name, args) {
  const call = (i) => registry.invoke({ id: `c${i}`, name, arguments: JSON.stringify(args(i)) });
  for (let i = 0; i < 20; i++) await call(i);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call(i);
  return (performance.now() - started) / CALLS;
}


const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = 5;

/** A Chat Completions endpoint that answers "ok" (streamed) and reports when each request arrived. */
async function firstRequestServer() {
  let arrived;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrived?.(performance.now());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.end(`${chunk({ role: 'assistant', content: 'ok' })}${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, next: () => new Promise((resolve) => (arrived = resolve)), close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Median ms from spawning the CLI to its first request, with these servers in the user config. */
async function timeToFirstRequest(endpoint, servers) {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-mcp-bench-'));
  mkdirSync(join(dir, 'home', '.config', 'vibe-agent'), { recursive: true });
  writeFileSync(join(dir, 'home', '.config', 'vibe-agent', 'config.json'), JSON.stringify({ mcpServers: servers }));
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: endpoint.url };
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const request = endpoint.next();
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'hi', '--no-session'], { cwd: dir, env, stdio: 'ignore' });
    times.push((await request) - started);
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(dir, { recursive: true, force: true });
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

async function cliStartup() {
  const endpoint = await firstRequestServer();
  const server = (name) => ({ command: process.execPath, args: [SERVER, '--name', name] });
  const none = await timeToFirstRequest(endpoint, {});
  const three = await timeToFirstRequest(endpoint, { a: server('a'), b: server('b'), c: server('c') });
  await endpoint.close();
  return { none, three };
}

export default async function mcpBench() {
  const registry = new ToolRegistry([calculatorTool]);
  const servers = new McpServers({ registry, warn: (text) => console.error(text) });
  const began = performance.now();
  servers.start({ name: 'fast1', spec: spec(), origin }, true);
  servers.start({ name: 'fast2', spec: spec(), origin }, true);
  servers.start({ name: 'slow', spec: spec('--start-delay', '8000'), origin }, true);
  await servers.settled(5000);
  const waited = performance.now() - began;
  const readyAtWait = servers.status().filter((s) => s.state === 'ready').map((s) => s.name);
  await servers.settled(60_000);
  const slowReady = performance.now() - began;

  const builtin = await perCall(registry, 'calculator', (i) => ({ expression: `${i}+1` }));
  const mcp = await perCall(registry, 'mcp__fast1__add', (i) => ({ a: i, b: 1 }));
  await servers.close();

  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| first request waited (VIBE_MCP_WAIT 5 s; 2 fast servers, 1 taking 8 s) | ${waited.toFixed(0)} ms, ready then: ${readyAtWait.join(', ')} |`);
  console.log(`| slow server's tools joined after | ${slowReady.toFixed(0)} ms |`);
  console.log(`| built-in calculator, per call | ${builtin.toFixed(3)} ms |`);
  console.log(`| MCP add over stdio, per call | ${mcp.toFixed(3)} ms |`);
  console.log(`| MCP overhead per call | ${(mcp - builtin).toFixed(3)} ms |`);
  const startup = await cliStartup();
  console.log(`| CLI spawn → first model request, no MCP server (median of ${RUNS}) | ${startup.none.toFixed(0)} ms |`);
  console.log(`| CLI spawn → first model request, 3 stdio servers (median of ${RUNS}) | ${startup.three.toFixed(0)} ms (×${(startup.three / startup.none).toFixed(2)}) |`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await mcpBench();
