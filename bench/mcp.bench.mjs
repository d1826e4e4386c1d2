// Per-call overhead of an MCP tool (a real stdio server written with the SDK) against a built-in tool,
// both through ToolRegistry.invoke; and the start of three servers, one slow, against the first-request wait.
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
