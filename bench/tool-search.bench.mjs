// Tool search, measured: the built CLI with 5 stdio MCP servers × 40 tools (real SDK servers,
// test/support/mcp-many-tools-server.mjs) and its coding tools, against the scripted session
// server (bench/cache-session-server.mjs) on both caching wires, with deferral (`--tool-search
// always`; the default `auto` defers here too at a 200k window, not at gpt-5's 400k) and without
// (`never`). 20 tool rounds and the answer: with deferral the first round searches
// ("create invoice") and the others call mcp__billing__create_invoice through call_tool; without,
// every round calls it directly. Each request is billed as the provider bills it with its prompt
// cache (bench/prompt-cache.mjs; input-token equivalents: uncached 1, read 0.1, written 1.25).
// `node bench/tool-search.bench.mjs` after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSessionServer } from './cache-session-server.mjs';
import { billSession, dollarsOf, tokensOf } from './prompt-cache.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SERVER = fileURLToPath(new URL('../test/support/mcp-many-tools-server.mjs', import.meta.url));
const DOMAINS = ['crm', 'billing', 'calendar', 'tickets', 'inventory'];
const MODELS = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-5' };
const UNIT_PRICE = { input: 1_000_000, cachedInput: 100_000, cacheWrite5m: 1_250_000, cacheWrite1h: 2_000_000 };
const ROUNDS = 20;
const INVOICE = 'mcp__billing__create_invoice';

function callFor(deferred) {
  return (round) => {
    const args = { title: `invoice ${round}` };
    if (!deferred) return { name: INVOICE, arguments: args };
    return round === 0 ? { name: 'tool_search', arguments: { query: 'create invoice' } } : { name: 'call_tool', arguments: { name: INVOICE, arguments: args } };
  };
}

function runProcess(args, env, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function session(wire, deferred) {
  const home = mkdtempSync(join(tmpdir(), 'vibe-tool-search-bench-'));
  const work = join(home, 'work');
  mkdirSync(work);
  mkdirSync(join(home, '.config', 'vibe-agent'), { recursive: true });
  const mcpServers = Object.fromEntries(DOMAINS.map((domain) => [domain, { command: process.execPath, args: [SERVER, '--domain', domain] }]));
  writeFileSync(join(home, '.config', 'vibe-agent', 'config.json'), JSON.stringify({ mcpServers }));
  const { server, requests, url } = await startSessionServer({ rounds: ROUNDS, call: callFor(deferred) });
  try {
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.data'), VIBE_MCP_WAIT: '60', ...(wire === 'anthropic' ? { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: url } : { OPENAI_API_KEY: 'x', OPENAI_BASE_URL: `${url}/v1` }) };
    const args = [CLI, 'File the invoices.', '--provider', wire, '--model', MODELS[wire], '--tools', 'coding', '--yes', '--no-session', '--max-turns', String(ROUNDS + 5), '--tool-search', deferred ? 'always' : 'never'];
    const ran = await runProcess(args, env, work);
    if (ran.code !== 0) throw new Error(`${wire} ${deferred ? 'deferred' : 'all'}: exit ${ran.code}\n${ran.stderr.slice(-1500)}`);
    const billed = billSession(requests.map((r) => ({ provider: r.provider, body: r.body, at: r.at })));
    const first = billed.outcomes[0];
    const tools = new Set(requests.map((r) => JSON.stringify(r.body.tools)));
    return {
      requests: requests.length,
      firstTokens: first.ok ? first.usage.inputTokens : NaN,
      toolTokens: tokensOf(requests[0].body.tools ?? []),
      sameTools: tools.size === 1,
      totals: billed.totals,
      readShare: billed.readShare,
      billed: dollarsOf({ ...billed.totals, outputTokens: 0 }, UNIT_PRICE),
    };
  } finally {
    server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const k = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n)));

export default async function toolSearchBench() {
  console.log(`\n## Tool search: 5 stdio MCP servers × 40 tools, ${ROUNDS} rounds\n`);
  console.log('| wire | tools | first request (tokens) | tool schemas sent | tools array the same on every request | input over the session | read from cache | billed (input-token equivalents) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const wire of ['anthropic', 'openai']) {
    const [all, deferred] = [await session(wire, false), await session(wire, true)];
    for (const [label, r] of [['all offered', all], ['deferred', deferred]]) {
      console.log(`| ${wire} | ${label} | ${k(r.firstTokens)} | ${k(r.toolTokens)} | ${r.sameTools ? 'yes' : 'no'} (${r.requests} requests) | ${k(r.totals.inputTokens)} | ${Math.round(r.readShare * 100)}% | ${k(r.billed)} |`);
    }
    console.log(`| ${wire} | deferred ÷ all | ${(deferred.firstTokens / all.firstTokens).toFixed(3)}× | ${(deferred.toolTokens / all.toolTokens).toFixed(3)}× | | ${(deferred.totals.inputTokens / all.totals.inputTokens).toFixed(3)}× | | ${(deferred.billed / all.billed).toFixed(3)}× |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await toolSearchBench();
